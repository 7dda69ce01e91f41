/** GET /ideas: one page of the workspace's ideas in the order asked, each with its exact counts, and the total. */
import type { PageStart } from '../../platform/pagination.ts';
import type { ListIdeasQuery } from '../schemas.ts';
import { type IdeaPage, readIdeaPage } from '../store/ideas.ts';

export function listIdeas(workspace: string, page: PageStart, query: Pick<ListIdeasQuery, 'sort' | 'includeMerged'>): Promise<IdeaPage> {
  return readIdeaPage(workspace, page, { sort: query.sort ?? '-createdAt', includeMerged: query.includeMerged === 'true' });
}
