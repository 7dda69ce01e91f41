/** GET /ideas: one page of the workspace's ideas, newest first, with the total (the store's counted list walk). */
import type { PageStart } from '../../platform/pagination.ts';
import { type IdeaPage, listIdeas as readPage } from '../store/ideas.ts';

export function listIdeas(workspace: string, page: PageStart): Promise<IdeaPage> {
  return readPage(workspace, page);
}
