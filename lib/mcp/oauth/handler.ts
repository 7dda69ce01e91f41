/**
 * The chain of the OAuth routes: no Developer key (a client has none; the consent form proves one
 * itself), the workspace from the host they are called on, the body as its standard sends it (a
 * form, or JSON for RFC 7591 registration), validated, then the operation. An answer is JSON, the
 * consent page (HTML with its own headers), or a redirect back to the client.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { LambdaHandler } from '../../platform/http/api-handler.ts';
import type { ApiContext } from '../../platform/http/context.ts';
import { formBody } from '../../platform/http/middleware/form-body.ts';
import { type HandlerResult, httpEnvelope } from '../../platform/http/middleware/http-envelope.ts';
import { jsonBody } from '../../platform/http/middleware/json-body.ts';
import { validateRequest } from '../../platform/http/middleware/validate-request.ts';
import { workspaceSlugFrom } from '../../platform/http/workspace-host.ts';
import type { RouteDefinition } from '../../platform/route.ts';
import type { AuthorizeAnswer } from './commands/authorize.ts';
import { consentPageHeaders, errorPage, pageLanguageOf } from './consent-page.ts';
import { type OAuthAddresses, oauthAddresses } from './metadata.ts';

export interface OAuthRequest {
  workspace: string;
  at: OAuthAddresses;
  query: any;
  body: any;
  headers: Record<string, string | undefined>;
  sourceIp: string;
}

/** A consent answer as the route's response: the page, or a redirect (303 after a form, so the browser GETs the client's URI). */
export function authorizeResult(answer: AuthorizeAnswer, method: 'GET' | 'POST'): HandlerResult {
  if ('redirect' in answer) {
    return {
      status: method === 'GET' ? 302 : 303,
      headers: { Location: answer.redirect, 'Cache-Control': 'no-store' },
      contentType: 'text/plain; charset=utf-8',
      body: '',
    };
  }
  return { status: answer.status, headers: answer.headers, contentType: 'text/html; charset=utf-8', body: answer.page };
}

type Chain = middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;

/**
 * The consent page's errors reach a person's browser, not a program: the envelope the chain rendered
 * once (http-envelope.ts) is shown as a page in the person's language (`lang` of the request, else
 * Accept-Language), with its code and message, under the page's own headers (no script, no frame).
 * An unknown client or a redirect URI nobody vouched for must be shown, never redirected to
 * (RFC 6749 §4.1.2.1). Registered before the envelope, so its onError runs after the envelope's.
 */
function errorsAsPages(): Chain {
  return {
    onError: (request) => {
      const response = request.response;
      if (typeof response?.body !== 'string') return;
      const { error, message } = JSON.parse(response.body) as { error: string; message: string };
      const { event } = request;
      const form = event.body as unknown;
      const lang =
        event.queryStringParameters?.lang ?? (form !== null && typeof form === 'object' ? (form as { lang?: unknown }).lang : undefined);
      const language = pageLanguageOf(typeof lang === 'string' ? lang : undefined, event.headers?.['accept-language']);
      request.response = {
        ...response,
        headers: { ...response.headers, ...consentPageHeaders(), 'Content-Type': 'text/html; charset=utf-8' },
        body: errorPage(language, error, message),
      };
    },
  };
}

export function oauthHandler(route: RouteDefinition) {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>();
  if (route.response.errorsAsPages) chain.use(errorsAsPages());
  chain.use(httpEnvelope(route.response.status));
  if (route.request?.body) chain.use(route.request.contentType ? formBody() : jsonBody(route));
  chain.use(validateRequest(route));
  return {
    handler(fn: (request: OAuthRequest) => Promise<HandlerResult>): LambdaHandler {
      return chain.handler(async (event, context) => {
        const headers = event.headers ?? {};
        const workspace = workspaceSlugFrom(headers);
        const result = await fn({
          workspace,
          at: oauthAddresses(workspace),
          query: context.input?.query,
          body: context.input?.body,
          headers,
          sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown',
        });
        return result as unknown as APIGatewayProxyStructuredResultV2;
      }) as unknown as LambdaHandler;
    },
  };
}
