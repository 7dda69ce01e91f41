/**
 * Versioning: every response names the contract version, and a manifest entry marked `deprecated`
 * announces its sunset in headers (RFC 9745, RFC 8594) and in the OpenAPI document.
 */

import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { publicHandler } from '../../lib/platform/http/public-handler.ts';
import { buildOpenApiDocument } from '../../lib/platform/openapi.ts';
import { defineRoute } from '../../lib/platform/route.ts';
import { API_VERSION, deprecationHeaders } from '../../lib/platform/version.ts';
import { apiEvent, lambdaContext } from '../support/events.ts';

/** A synthetic route, on its way out. */
const oldRoute = defineRoute({
  operationId: 'listThingsOld',
  method: 'GET',
  path: '/things-old',
  handler: 'functions/test/list-things-old.ts',
  tag: 'Ideas',
  summary: 'List things (old)',
  module: null,
  permissions: [],
  response: { status: 200, body: z.object({ ok: z.literal(true) }) },
  deprecated: { since: '2026-01-01', sunset: '2026-07-01', replacement: '`GET /things`' },
});
const { deprecated: _, ...currentRoute } = { ...oldRoute, operationId: 'listThings', path: '/things' as const };

describe('API-Version', () => {
  it('is on every response, success or error, public or authenticated', async () => {
    const ok = await publicHandler(200).handler(async () => ({ body: { ok: true } }))(apiEvent({}), lambdaContext());
    expect(ok.headers?.['API-Version']).toBe('1.0.0');
    const unauthenticated = await apiHandler(currentRoute).handler(async () => ({ body: { ok: true as const } }))(
      apiEvent({ headers: { 'x-service-workspace-host': 'acme' } }),
      lambdaContext(),
    );
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.headers?.['API-Version']).toBe(API_VERSION);
    expect(unauthenticated.headers?.Deprecation).toBeUndefined();
    expect(buildOpenApiDocument([currentRoute]).info).toMatchObject({ version: API_VERSION });
  });
});

describe('a deprecated manifest entry', () => {
  it('sends Deprecation as @epoch-seconds (RFC 9745) and Sunset as an HTTP-date (RFC 8594), even on an error', async () => {
    const res = await apiHandler(oldRoute).handler(async () => ({ body: { ok: true as const } }))(
      apiEvent({ headers: { 'x-service-workspace-host': 'acme' } }),
      lambdaContext(),
    );
    expect(res.statusCode).toBe(401);
    expect(res.headers?.Deprecation).toBe(`@${Date.UTC(2026, 0, 1) / 1000}`);
    expect(res.headers?.Deprecation).toBe('@1767225600');
    expect(res.headers?.Sunset).toBe('Wed, 01 Jul 2026 00:00:00 GMT');
  });

  it('is `deprecated: true` in OpenAPI, with the dates and the replacement in its description and both headers documented', () => {
    const document = buildOpenApiDocument([oldRoute, currentRoute]) as any;
    const old = document.paths['/things-old'].get;
    expect(old.deprecated).toBe(true);
    expect(old.description).toContain('Deprecated** since 2026-01-01; may stop working after 2026-07-01. Use `GET /things` instead.');
    expect(Object.keys(old.responses['200'].headers)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'API-Version']));
    expect(document.paths['/things'].get.deprecated).toBeUndefined();
  });

  it('fails at cold start when its dates are malformed or the sunset is not after the deprecation', () => {
    expect(() => deprecationHeaders({ since: '2026-13-01', sunset: '2027-01-01' })).toThrow(/YYYY-MM-DD/);
    expect(() => deprecationHeaders({ since: '2026-06-01', sunset: '2026-06-01' })).toThrow(/after/);
    expect(() => apiHandler({ ...oldRoute, deprecated: { since: '2026-06-01', sunset: '2026-01-01' } })).toThrow(/after/);
  });
});
