/**
 * API Gateway's `$default` route: every request no route matches. `GET /` redirects to the API
 * index; a path some route serves with another method is a 405 with `Allow` (from the manifest, as
 * the sandbox router matches it); any other is a 404, in the same envelope as every other error.
 */
import { API_PREFIX, routes } from '../../lib/manifest.ts';
import { MethodNotAllowedError, NotFoundError } from '../../lib/platform/errors.ts';
import { publicHandler } from '../../lib/platform/http/public-handler.ts';
import { routeMatcher } from '../../lib/platform/http/route-match.ts';

const router = routeMatcher(routes);

export const handler = publicHandler(404).handler(async (event) => {
  const method = event.requestContext.http.method;
  // Someone who opens the bare host finds the API index, which links the document and the reference
  // page. 302, not 308: the root may serve something of its own one day, and browsers cache a 308.
  if ((method === 'GET' || method === 'HEAD') && event.rawPath === '/') {
    return {
      status: 302,
      headers: { Location: API_PREFIX, 'Cache-Control': 'no-store' },
      contentType: 'text/plain; charset=utf-8',
      body: '',
    };
  }
  const allowed = router.methodsAllowed(event.rawPath);
  if (allowed.length > 0) throw new MethodNotAllowedError(method, allowed);
  throw new NotFoundError('route_not_found', `No route ${method} ${event.rawPath}`);
});
