/**
 * The route manifest: every operation of the API, once. The CDK stack makes a function and an API
 * route of each entry, the local sandbox serves them, the OpenAPI document describes them and the
 * tests walk them. An area adds its routes by exporting them from its own file and listing them here.
 */
import * as ideas from './ideas/routes.ts';
import * as introduction from './introduction/routes.ts';
import * as journeys from './journeys/routes.ts';
import * as knowledgeBank from './knowledge-bank/routes.ts';
import * as knowledgeBankSearch from './knowledge-bank/search/routes.ts';
import * as oauth from './mcp/oauth/routes.ts';
import * as mcp from './mcp/routes.ts';
import * as people from './people/routes.ts';
import type { RouteDefinition } from './platform/route.ts';
import * as sops from './sops/routes.ts';
import * as surveyExports from './surveys/exports/routes.ts';
import * as surveyResponses from './surveys/responses/routes.ts';
import * as surveys from './surveys/routes.ts';
import * as surveySummary from './surveys/summary/routes.ts';
import * as usage from './usage/routes.ts';
import * as webhooks from './webhooks/routes.ts';

export { API_PREFIX } from './platform/route.ts';

/** Answers every request no route matches (API Gateway's `$default` route). */
export const NOT_FOUND_HANDLER = 'functions/system/not-found.ts';

/** Each area's routes file, in the order the document lists their operations. */
const areas = [
  introduction,
  ideas,
  journeys,
  surveys,
  surveyResponses,
  surveySummary,
  surveyExports,
  sops,
  webhooks,
  knowledgeBank,
  knowledgeBankSearch,
  people,
  mcp,
  oauth,
  usage,
];

export const routes: readonly RouteDefinition[] = areas.flatMap((area) => Object.values(area));

export type { RouteDefinition } from './platform/route.ts';
