/**
 * What the OpenAPI document says of each error status of an operation: its codes (route-errors.ts)
 * as `x-error-codes`, and a description naming each. The platform's own codes are named only (the
 * document's overview and docs/errors.md say what each means); a code of the operation's area, or
 * one the route says more about, comes with its meaning for this operation.
 */
import { type ErrorCatalog, type ErrorCode, type ErrorStatus, platformErrorCodes } from './error-codes.ts';
import type { RouteDefinition } from './route.ts';
import { errorCodesOf } from './route-errors.ts';

const STATUS_TITLES: Record<ErrorStatus, string> = {
  400: 'Invalid request',
  401: 'No usable Developer key',
  403: 'The key may not do this here',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflicts with the record as it is now',
  413: 'Too large',
  415: 'The body is not sent as JSON',
  429: 'Rate limited: retry after the whole seconds in `Retry-After`',
  502: 'Unexpected server error, with no internal detail (the logs have it, under `X-Request-Id`)',
  503: 'Busy: AWS throttled the request or did not answer in time; retry after the whole seconds in `Retry-After`',
};

/** A catalog meaning continues the code's line as a route's note does: lower case, unless it opens with an acronym. */
const continuing = (meaning: string) => (/^[A-Z][a-z]/.test(meaning) ? meaning[0]!.toLowerCase() + meaning.slice(1) : meaning);

export interface ErrorResponseText {
  status: ErrorStatus;
  description: string;
  /** Every code the operation answers with this status: the document's `x-error-codes`. */
  codes: ErrorCode[];
}

const isPlatformCode = (code: ErrorCode) => Object.hasOwn(platformErrorCodes, code);

/** The error statuses of the route in ascending order, each with its codes and their description. */
export function errorResponsesOf(route: RouteDefinition, catalog: ErrorCatalog): ErrorResponseText[] {
  return [...errorCodesOf(route)].map(([status, codes]) => {
    const named = [...codes].filter(([code, note]) => isPlatformCode(code) && note === undefined).map(([code]) => `\`${code}\``);
    const explained = [...codes]
      .filter(([code, note]) => !isPlatformCode(code) || note !== undefined)
      .map(([code, note]) => `- \`${code}\`: ${note ?? continuing(catalog[code]?.meaning ?? '')}`);
    const lines = [`${STATUS_TITLES[status]}${named.length > 0 ? ` (${named.join(', ')})` : ''}`, ...explained];
    return { status, description: lines.join('\n'), codes: [...codes.keys()] };
  });
}
