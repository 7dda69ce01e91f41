/**
 * The chain of a list whose query takes `cursor`: apiHandler's, with the cursor middleware
 * (middleware/cursor-page.ts) that hands the handler `request.page`, the page start with its cursor
 * verified. Only these functions bundle the cursor's signing key (lib/platform/pagination.ts).
 */
import type { RouteDefinition } from '../route.ts';
import { apiHandler } from './api-handler.ts';
import { cursorPage } from './middleware/cursor-page.ts';

export function listHandler<R extends RouteDefinition>(route: R) {
  return apiHandler(route, { cursorPage: cursorPage(route) });
}
