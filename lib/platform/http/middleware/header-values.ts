/**
 * A header value holding a control character is 400 `invalid_header`, in the envelope, naming the
 * header and the code point (never the value: it may be a key). RFC 9110 §5.5 allows a field value
 * only visible characters, spaces, tabs and obs-text; a request that breaks it may be rejected whole,
 * which is the one answer a client can rely on whichever header it was (a control character left in
 * a key, a workspace host or an If-Match would otherwise meet each check's own message).
 *
 * API Gateway's part: AWS does not document what an HTTP API does with such a value. An HTTP/2
 * front end passes every control character but NUL, CR and LF on (RFC 9113 §8.2.1 makes only those
 * malformed), and a recipient of NUL, CR or LF must refuse the request or replace the character with
 * a space (RFC 9110 §5.5): so these reach the function, which answers here, and those are the
 * gateway's own 400 (lib/platform/gateway-answers.ts, `malformedRequest`), as the sandbox answers them.
 * obs-text (bytes 0x80-0xFF, UTF-8 text read as Latin-1) is no control character here.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ValidationError } from '../../errors.ts';
import type { ApiContext } from '../context.ts';

const TAB = 0x09;
const DELETE = 0x7f;

/**
 * The first control character of a value, as `U+XXXX`, or null: the C0 controls but HTAB, and DEL.
 * Not the C1 controls (U+0080–U+009F): they are bytes of UTF-8 text read as Latin-1, as a value's
 * bytes arrive.
 */
function controlCharacterIn(value: string): string | null {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== TAB) || code === DELETE) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

export function headerValues(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext> {
  return {
    before: ({ event }) => {
      for (const [name, value] of Object.entries(event.headers ?? {})) {
        const found = value === undefined ? null : controlCharacterIn(value);
        if (found) {
          throw new ValidationError('invalid_header', [
            {
              path: `header.${name}`,
              message: `holds ${found}, a control character: a header value is visible characters, spaces and tabs (RFC 9110 §5.5)`,
            },
          ]);
        }
      }
    },
  };
}
