/** GET /ideas: one page of the workspace's ideas, newest first, with the total (the store's counted list walk). */
export { listIdeas } from '../store/ideas.ts';
