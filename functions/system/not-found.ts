/**
 * API Gateway's `$default` route: every request no route matches. A path some route serves with
 * another method is a 405 with `Allow` (from the manifest, as the sandbox router matches it); any
 * other is a 404, in the same envelope as every other error.
 */
import { routes } from '../../lib/manifest.ts';
import { MethodNotAllowedError, NotFoundError } from '../../lib/platform/errors.ts';
import { publicHandler } from '../../lib/platform/http/api-handler.ts';
import { routeMatcher } from '../../lib/platform/http/route-match.ts';

const router = routeMatcher(routes);

export const handler = publicHandler(404).handler(async (event) => {
  const method = event.requestContext.http.method;
  const allowed = router.methodsAllowed(event.rawPath);
  if (allowed.length > 0) throw new MethodNotAllowedError(method, allowed);
  throw new NotFoundError('route_not_found', `No route ${method} ${event.rawPath}`);
});
