/** The route manifest is consistent: unique operations, existing handler files, documented permissions. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_FOUND_HANDLER, routes } from '../../lib/manifest.ts';
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
});
