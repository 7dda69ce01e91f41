/**
 * The body of a route that takes an HTML form or an OAuth request (RFC 6749 sends
 * `application/x-www-form-urlencoded`): sent as such (else 415), UTF-8, parsed into `event.body` as
 * an object whose repeated fields are arrays (a form's checkboxes). validateRequest then holds it to
 * the route's schema.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { BadRequestError, UnsupportedMediaTypeError } from '../../errors.ts';
import type { ApiContext } from '../context.ts';

const FORM = /^application\/x-www-form-urlencoded(;|$)/i;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function formBody(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext> {
  return {
    before: (request) => {
      const { event } = request;
      const contentType = event.headers?.['content-type'];
      if (!event.body) return;
      if (!contentType || !FORM.test(contentType)) throw new UnsupportedMediaTypeError(contentType, 'application/x-www-form-urlencoded');
      let text: string;
      try {
        text = event.isBase64Encoded ? strictUtf8.decode(Buffer.from(event.body, 'base64')) : event.body;
      } catch {
        throw new BadRequestError('invalid_body', 'The form is not UTF-8');
      }
      const fields: Record<string, string | string[]> = {};
      for (const [name, value] of new URLSearchParams(text)) {
        const earlier = fields[name];
        fields[name] = earlier === undefined ? value : [earlier, value].flat();
      }
      (event as { body: unknown }).body = fields;
      event.isBase64Encoded = false;
    },
  };
}
