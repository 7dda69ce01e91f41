/**
 * The body of a route that takes one: sent as JSON (else 415), Unicode text exactly as the client
 * sent it (else 400 `invalid_json`), then parsed with @middy/http-json-body-parser into
 * `event.body`, whatever JSON value it is (validateRequest then holds it to the route's schema). A
 * route without a body schema ignores any body.
 *
 * What reaches the function is decided here, where Lambda sees the request, because API Gateway
 * does not say what it does with bytes that are not UTF-8 in a text body: an HTTP API hands a text
 * body (`application/json`) to Lambda as a string, so such bytes arrive as U+FFFD, the replacement
 * character, as the sandbox delivers them too; a body it base64-encodes arrives as the bytes. Both
 * are refused, rather than a changed text stored: the replacement character sent as such (not as
 * the escape `\ufffd`), bytes that do not decode strictly, and a string holding a lone surrogate
 * (`"\ud800"`: JSON's escapes can write one, but it is no Unicode text; I-JSON, RFC 7493 §2.1).
 */
import type middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { BadRequestError, UnsupportedMediaTypeError } from '../../errors.ts';
import type { RouteDefinition } from '../../route.ts';
import type { ApiContext } from '../context.ts';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;

/** `application/json` or a `+json` type, any parameters (a `charset` is fine): as middy's own check. */
const JSON_CONTENT_TYPE = /^application\/([a-z0-9.+-]+\+)?json(;|$)/i;
const REPLACEMENT_CHARACTER = '\uFFFD';
/** With the `u` flag a surrogate pair is one code point, so this matches a lone surrogate only. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/**
 * Only an escape writes a surrogate in JSON text (UTF-8 cannot encode one), so a body without
 * `\uD8…`–`\uDF…` needs no walk: most bodies skip it (1.4 MB: 1 ms to look, 16 ms to walk).
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const invalidJson = (message: string) => new BadRequestError('invalid_json', message);

/** The body as the text the client sent, or 400 when it cannot be that. */
function textOf(body: string, isBase64Encoded: boolean): string {
  if (isBase64Encoded) {
    try {
      return strictUtf8.decode(Buffer.from(body, 'base64'));
    } catch {
      throw invalidJson('The request body is not valid UTF-8');
    }
  }
  if (body.includes(REPLACEMENT_CHARACTER)) {
    throw invalidJson(
      'The request body holds U+FFFD, the replacement character: bytes that are not UTF-8 arrive as it, so the body is refused ' +
        'rather than stored changed (to send the character itself, escape it as \\ufffd)',
    );
  }
  return body;
}

/** Where the parsed body holds a lone surrogate, in a key or a string (`body.tags.0`), or null. */
function loneSurrogateIn(value: unknown, path: string): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, member] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (LONE_SURROGATE.test(key)) return at;
    const found = loneSurrogateIn(member, at);
    if (found) return found;
  }
  return null;
}

export function jsonBody(
  route: Pick<RouteDefinition, 'request'>,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext> {
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true });
  const takesBody = route.request?.body !== undefined;
  return {
    before: async (request: Request) => {
      const { event } = request;
      if (!takesBody) return;
      if (!event.body) {
        // An empty body is no body (validateRequest asks for one), not the JSON string `""`.
        event.body = undefined;
        return;
      }
      const contentType = event.headers?.['content-type'];
      if (!contentType || !JSON_CONTENT_TYPE.test(contentType)) throw new UnsupportedMediaTypeError(contentType);
      const text = textOf(event.body, event.isBase64Encoded);
      event.body = text;
      event.isBase64Encoded = false;
      try {
        await parser.before!(request as never);
      } catch {
        throw invalidJson('The request body is not valid JSON');
      }
      const surrogate = SURROGATE_ESCAPE.test(text) ? loneSurrogateIn(event.body, 'body') : null;
      if (surrogate) throw invalidJson(`The request body holds a lone surrogate at ${surrogate}: it is no Unicode text`);
    },
  };
}
