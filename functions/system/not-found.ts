/** Every request no route matches: a 404 in the same envelope as every other error. */
import { NotFoundError } from '../../lib/platform/errors.ts';
import { publicHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = publicHandler(404).handler(async (event) => {
  throw new NotFoundError('route_not_found', `No route ${event.requestContext.http.method} ${event.rawPath}`);
});
