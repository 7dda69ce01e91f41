/**
 * The error catalog: the platform's codes and every area's, as the manifest lists every route. Adding
 * an area's catalog here is what lets its code compile (`ErrorCodes` below), so no code is thrown that
 * the OpenAPI document and docs/errors.md do not describe.
 */
import { ideaErrorCodes } from './ideas/errors.ts';
import { journeyErrorCodes } from './journeys/errors.ts';
import { knowledgeBankErrorCodes } from './knowledge-bank/errors.ts';
import { mcpErrorCodes } from './mcp/errors.ts';
import { oauthErrorCodes } from './mcp/oauth/errors.ts';
import { type ErrorCatalog, platformErrorCodes, type StatusesOf } from './platform/error-codes.ts';
import { surveyErrorCodes } from './surveys/errors.ts';
import { webhookErrorCodes } from './webhooks/errors.ts';

/** Each catalog by who declares it; a code declared twice fails test/unit/error-catalog.test.ts. */
export const errorCatalogs = {
  platform: platformErrorCodes,
  ideas: ideaErrorCodes,
  journeys: journeyErrorCodes,
  surveys: surveyErrorCodes,
  webhooks: webhookErrorCodes,
  'knowledge-bank': knowledgeBankErrorCodes,
  mcp: mcpErrorCodes,
  oauth: oauthErrorCodes,
} as const satisfies Record<string, ErrorCatalog>;

const areaErrorCodes = {
  ...ideaErrorCodes,
  ...journeyErrorCodes,
  ...surveyErrorCodes,
  ...webhookErrorCodes,
  ...knowledgeBankErrorCodes,
  ...mcpErrorCodes,
  ...oauthErrorCodes,
};

declare module './platform/error-codes.ts' {
  /** The areas' codes, each with its status: the typed errors accept them from here on. */
  interface ErrorCodes extends StatusesOf<typeof areaErrorCodes> {}
}

/** Every declared code with its status and meaning. */
export const errorCatalog: ErrorCatalog = { ...platformErrorCodes, ...areaErrorCodes };
