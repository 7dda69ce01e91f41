/**
 * Every error code the code base can throw is declared once, in the catalog (lib/error-codes.ts),
 * with one status, and answered by some operation, so the OpenAPI document and docs/errors.md,
 * which read the catalog, describe every error a client can meet (issue 27, item 4).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCatalog, errorCatalogs } from '../../lib/error-codes.ts';
import { routes } from '../../lib/manifest.ts';
import { ApiError, ConflictError, NotFoundError } from '../../lib/platform/errors.ts';
import { errorCodesOf, UNROUTED_CODES } from '../../lib/platform/route-errors.ts';

const ROOT = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(resolve(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const sources = [...sourceFiles('lib'), ...sourceFiles('functions')].map((file) => ({
  file,
  text: readFileSync(resolve(ROOT, file), 'utf8'),
}));

describe('the error catalog', () => {
  it('declares each code once, in one catalog', () => {
    const declared = Object.entries(errorCatalogs).flatMap(([owner, catalog]) => Object.keys(catalog).map((code) => `${code} (${owner})`));
    const codes = declared.map((entry) => entry.split(' ')[0]);
    expect(declared.filter((_, i) => codes.indexOf(codes[i]) !== i)).toEqual([]);
    expect(Object.keys(errorCatalog).sort()).toEqual([...codes].sort());
  });

  it('has no code that no operation answers (but those of a request no route matches)', () => {
    const answered = new Set(routes.flatMap((route) => [...errorCodesOf(route).values()].flatMap((codes) => [...codes.keys()])));
    const unanswered = Object.keys(errorCatalog).filter((code) => !answered.has(code as never) && !UNROUTED_CODES.includes(code as never));
    expect(unanswered, 'a code no route declares: declare it on the routes that answer it, or drop it').toEqual([]);
  });

  it('holds every code a route declares, under the status the route declares it with', () => {
    for (const route of routes) {
      for (const [status, codes] of errorCodesOf(route)) {
        for (const code of codes.keys()) expect(errorCatalog[code]?.status, `${route.operationId}: ${code}`).toBe(status);
      }
    }
  });

  it('holds every code the code base throws, as the type of every typed error enforces', () => {
    // The platform's typed errors (lib/platform/errors.ts), each with its code first (ApiError: after the status).
    const typed = [...readFileSync(resolve(ROOT, 'lib/platform/errors.ts'), 'utf8').matchAll(/export class (\w+)/g)].map((m) => m[1]!);
    const thrown = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/new (\w+)\(\s*(?:(\d{3}),\s*)?'([a-z]+(?:_[a-z]+)*)'/g)]
        .filter(([, kind]) => typed.includes(kind!))
        .map(([, kind, status, code]) => ({ file, kind, status, code })),
    );
    expect(thrown.length).toBeGreaterThan(80);
    const undeclared = thrown.filter(({ code }) => !Object.hasOwn(errorCatalog, code!));
    expect(undeclared).toEqual([]);
    for (const { file, status, code } of thrown.filter((throwing) => throwing.status)) {
      expect(errorCatalog[code!]!.status, `${file}: ${code}`).toBe(Number(status));
    }
  });

  it('is the only way to an error body: no code builds the envelope but the one renderer', () => {
    const building = sources.filter(({ text }) => /\{\s*ok: false,\s*error:[^}]*message:/.test(text)).map(({ file }) => file);
    expect(building).toEqual(['lib/platform/http/middleware/http-envelope.ts']);
  });

  it('is what the compiler holds every typed error to (npm run check fails if these compile)', () => {
    // @ts-expect-error: a code the catalog does not declare
    expect(new ConflictError('not_a_declared_code', 'x').code).toBe('not_a_declared_code');
    // @ts-expect-error: a declared code with another status than its own
    expect(new ApiError(400, 'response_too_large', 'x').status).toBe(400);
    // @ts-expect-error: a 409 code thrown as a 404
    expect(new NotFoundError('version_conflict').status).toBe(404);
  });
});
