/** The route manifest is consistent: unique operations, existing handler files, documented permissions. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_FOUND_HANDLER, routes } from '../../lib/manifest.ts';
import { jsonSchemaOf } from '../../lib/platform/json-schema.ts';
import { PERMISSIONS } from '../../lib/platform/permissions.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('route manifest', () => {
  it('names each operation and each method + path once', () => {
    const ids = routes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('points every route at a handler file that exports `handler`', () => {
    for (const file of [...routes.map((r) => r.handler), NOT_FOUND_HANDLER]) {
      const path = resolve(ROOT, file);
      expect(existsSync(path), file).toBe(true);
      expect(readFileSync(path, 'utf8'), file).toMatch(/export const handler\b/);
    }
  });

  it('uses only known permissions, and declares a path schema for every path parameter', () => {
    for (const route of routes) {
      for (const p of route.permissions) expect(PERMISSIONS, route.operationId).toContain(p);
      if (route.path.includes('{')) expect(route.request?.params, route.operationId).toBeDefined();
    }
  });

  /** A 201 whose answer a standard fixes, not ours to give a Location or replay (it has no record to read back, no key to remember it under). */
  const CREATED_AS_A_STANDARD_SAYS: Record<string, string> = {
    registerOAuthClient:
      'RFC 7591 §3.2.1: 201 with the client information in the body; a public client without a key, read back by no route',
  };

  it('gives every 201 a Location, and makes every creating POST honour Idempotency-Key', () => {
    for (const route of routes.filter((r) => r.response.status === 201 && !(r.operationId in CREATED_AS_A_STANDARD_SAYS))) {
      expect(route.response.location, `${route.operationId} answers 201 without a Location`).toMatch(/^\/.*\{[\w.]+\}/);
      if (route.method === 'POST') expect(route.idempotent, `${route.operationId} creates but ignores Idempotency-Key`).toBe(true);
    }
  });

  it('lets every idempotent route read its remembered response beside the workspace (BatchGetItem)', () => {
    for (const route of routes.filter((r) => r.idempotent)) {
      expect(route.table, `${route.operationId} cannot replay a retry before its checks`).toContain('BatchGetItem');
    }
  });

  it('takes a JSON object as every body (the chain refuses any other JSON value before the schema: validate-request.ts)', () => {
    type JsonSchema = Record<string, unknown>;
    for (const route of routes.filter((r) => r.request?.body)) {
      const document = jsonSchemaOf(route.request!.body!, 'input');
      const defs = (document.$defs ?? {}) as Record<string, JsonSchema>;
      const objectsOnly = (schema: JsonSchema): boolean => {
        const ref = typeof schema.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
        if (ref !== undefined) return objectsOnly(defs[ref] ?? {});
        return schema.type === 'object' || ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined)?.every(objectsOnly) === true;
      };
      expect(objectsOnly(document), `${route.operationId}: ${JSON.stringify(document).slice(0, 200)}`).toBe(true);
    }
  });

  // Issue 37 item 15: the draft save refused a missing If-Match in its handler, with a message of its own.
  it('leaves a required If-Match to the chain, which enforces the declaration: no handler refuses a missing one itself', () => {
    for (const route of routes) {
      const source = readFileSync(resolve(ROOT, route.handler), 'utf8');
      expect(source, `${route.handler}: declare \`requiredIfMatch\` on the route instead`).not.toMatch(
        /if_match_required|ifMatchRequired\(/,
      );
    }
  });

  it('docs/pagination.md names exactly the lists that take limit and offset', () => {
    const guide = readFileSync(resolve(ROOT, 'docs/pagination.md'), 'utf8');
    const line = /\*\*Paged lists\*\* \(([^)]*)\)/.exec(guide)?.[1] ?? '';
    const named = [...line.matchAll(/`GET ([^`]+)`/g)].map((m) => m[1]).sort();
    const paged = routes
      .filter((r) => {
        const shape = (r.request?.query as { def?: { shape?: Record<string, unknown> } } | undefined)?.def?.shape;
        return r.method === 'GET' && shape !== undefined && 'offset' in shape && 'limit' in shape;
      })
      .map((r) => r.path)
      .sort();
    expect(named).toEqual(paged);
  });
});
