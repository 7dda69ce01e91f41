/**
 * Schemas shared by many routes. zod/mini keeps each function's bundle small: its checks are
 * tree-shakable functions rather than methods on a large prototype (see bench/bundle-size.ts).
 */

import { en } from 'zod/locales';
import * as z from 'zod/mini';

// zod/mini ships no messages; English ones make validation errors readable for integrators.
z.config(en());

/**
 * Names a record or shared shape of the API: the OpenAPI document lists it once under
 * `components.schemas` with this name and refers to it wherever it appears
 * (lib/platform/openapi-components.ts), so the typed client exports it (`import type { Survey }`).
 * Keeps the metadata already registered for the schema (a description).
 */
export function named<S extends z.ZodMiniType>(id: string, schema: S): S {
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
  return schema;
}

/** Characters as JSON Schema counts them (code points), so an Arabic letter or an emoji is one, not two. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/**
 * "At most `max` characters", counted as JSON Schema's `maxLength` counts them (code points), for
 * every bilingual text of every area. `length` (UTF-16 units) decides cheaply when it can.
 */
export function atMostCharacters(max: number) {
  return z.refine<string>(
    (value) => value.length <= max || (value.length <= 2 * max && characterCount(value) <= max),
    `must be at most ${max} characters`,
  );
}

/** A query-string integer: digits only (no `1e3`, no `0x10`), then range-checked. */
export function queryInteger(min: number, max: number, fallback: number) {
  return z
    .prefault(
      z.pipe(
        z.string().check(z.regex(/^\d{1,10}$/, 'must be a whole number')),
        z.pipe(z.transform(Number), z.number().check(z.minimum(min), z.maximum(max))),
      ),
      String(fallback),
    )
    .register(z.globalRegistry, { type: 'integer', minimum: min, maximum: max, default: fallback });
}

/**
 * `limit` and `offset` of every list (spec part 4 and part 8), and `cursor` for full syncs
 * (lib/platform/pagination.ts): a list whose query has this shape is paginated both ways.
 */
export const pageQueryShape = {
  limit: queryInteger(1, 100, 25),
  offset: queryInteger(0, 2_147_483_647, 0),
  cursor: z.optional(
    z
      .string()
      .check(z.minLength(1), z.maxLength(2048))
      .register(z.globalRegistry, {
        description:
          'Opaque: `pagination.nextCursor` of the previous page. Continues where it stopped, reading only this page (unlike `offset`, ' +
          'which re-reads every earlier record). Bound to the workspace and the list; do not combine with `offset`.',
      }),
  ),
};
export const pageQuery = z.strictObject(pageQueryShape);

/** Where to continue: null on the last page. */
export const nextCursor = z.nullable(z.string()).register(z.globalRegistry, {
  description: 'Pass as `cursor` to get the next page; null on the last page',
});

export const pagination = named(
  'Pagination',
  z.object({
    limit: z.int(),
    offset: z.int(),
    total: z.int(),
    hasMore: z.boolean(),
    nextCursor,
  }),
);

export const uuid = z.uuid();
export const timestamp = z.iso.datetime().register(z.globalRegistry, { description: 'ISO 8601 UTC date-time' });

export const okOnly = z.object({ ok: z.literal(true) });

/** One problem of a request that breaks the schema (ValidationError), as every 400 lists it. */
export const validationIssue = named('ValidationIssue', z.object({ path: z.string(), message: z.string() }));

export const errorEnvelope = named(
  'Error',
  z.object({
    ok: z.literal(false),
    error: z.string().register(z.globalRegistry, { description: 'Stable machine-readable error code' }),
    message: z.string(),
    issues: z.optional(
      z.array(validationIssue).register(z.globalRegistry, {
        description: 'Present on validation errors: every problem found, with where it is',
      }),
    ),
  }),
);

/** An empty strict object: the route takes no query parameters, so any given is a 400. */
export const noQuery = z.strictObject({});
