/** The workspace's designs (GetItem). */
export { listDesigns } from '../store/designs.ts';
