/** DELETE /ideas/{id}: the idea deleted (optionally only at the If-Match version) and uncounted, in one transaction. */
export { deleteIdea } from '../store/ideas.ts';
