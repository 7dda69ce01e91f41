/** A new design, counted against the workspace's limit: one write (store/designs.ts). */
export type { SurveyDesign } from '../schemas.ts';
export { createDesign } from '../store/designs.ts';
