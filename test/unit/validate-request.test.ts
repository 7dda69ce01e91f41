/**
 * What validateRequest says of a required member that is not there, on every route of the manifest:
 * its name and that it is required, never zod's "Invalid input: expected string, received undefined"
 * (issue 37 item 15: a knowledge-bank search without `q`).
 */
import type middy from '@middy/core';
import { describe, expect, it } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import { ValidationError } from '../../lib/platform/errors.ts';
import { validateRequest } from '../../lib/platform/http/middleware/validate-request.ts';
import type { RouteDefinition } from '../../lib/platform/route.ts';

/** The issues validateRequest answers for a request with no query parameters and the body `{}` (none when it passes). */
function issuesOf(route: RouteDefinition, where: 'query' | 'body'): { path: string; message: string }[] {
  const event = { pathParameters: undefined, queryStringParameters: undefined, body: {} };
  const request = { event, context: {} } as unknown as middy.Request;
  // Path parameters are checked first: a route without them here is given a stand-in that skips them.
  const only = { request: { ...route.request, params: undefined, ...(where === 'query' ? { body: undefined } : {}) } };
  try {
    (validateRequest(only as RouteDefinition).before as (request: middy.Request) => void)(request);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.issues ?? [];
  }
}

describe('validateRequest, for a required member that is missing', () => {
  it('names the query parameter, on every route whose query requires one', () => {
    const missing = routes.flatMap((route) => issuesOf(route, 'query').map((issue) => ({ route: route.operationId, ...issue })));
    expect(missing.map(({ route, path }) => `${route} ${path}`)).toEqual(
      expect.arrayContaining(['searchKnowledgeBank query.q', 'diffJourneyVersions query.against']),
    );
    for (const { route, path, message } of missing) {
      expect(message, `${route} ${path}`).toBe(`\`${path.split('.').at(-1)}\` is required`);
    }
  });

  it('names the body member, on every route whose body requires one', () => {
    const missing = routes.flatMap((route) => issuesOf(route, 'body').map((issue) => ({ route: route.operationId, ...issue })));
    expect(missing.map(({ route, path }) => `${route} ${path}`)).toEqual(
      expect.arrayContaining(['createIdea body.title', 'createSop body.type']),
    );
    for (const { route, path, message } of missing) {
      expect(message, `${route} ${path}`).not.toMatch(/received undefined|^Invalid (input|option)/);
    }
  });
});
