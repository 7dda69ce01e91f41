/**
 * Request and response schemas of the Journeys area. The content schema itself lives in
 * content.ts; here it is wrapped in the bodies that carry it, with the size gate in front.
 */
import * as z from 'zod/mini';
import { ContentTooLargeError } from '../platform/errors.ts';
import { named, pageQueryShape, pagination, timestamp } from '../platform/schemas.ts';
import { CONTENT_LIMITS } from './codec.ts';
import { journeyContent } from './content.ts';
import { DIAGNOSTIC_CODES } from './diagnostics.ts';

const JOURNEY_LIMITS = { title: 200, label: 100 } as const;

/** Lengths in characters (code points), as users count them. */
function characters(min: number, max: number) {
  return z
    .string()
    .check(
      z.refine((value) => {
        const length = [...value].length;
        return length >= min && length <= max;
      }, `must be ${min}-${max} characters`),
    )
    .register(z.globalRegistry, { minLength: min, maxLength: max });
}

const title = characters(1, JOURNEY_LIMITS.title);
const label = characters(1, JOURNEY_LIMITS.label);

export const journeyIdParams = z.strictObject({ journeyId: z.uuid() });
export const versionIdParams = z.strictObject({ journeyId: z.uuid(), versionId: z.uuid() });

export const journeyListQuery = z.strictObject({
  ...pageQueryShape,
  kind: z.optional(z.enum(['macro', 'micro'])),
});
export const versionListQuery = z.strictObject(pageQueryShape);
export const diffQuery = z.strictObject({ against: z.uuid() });

/** The days metrics cover: UTC dates, `from` not after `to`, at most MAX_METRIC_DAYS days (default: the last 90 days). */
export const MAX_METRIC_DAYS = 732;
const DAY_MS = 86_400_000;
const day = z.iso.date().register(z.globalRegistry, { description: 'A UTC date, `YYYY-MM-DD`' });
const rangeShape = { from: z.optional(day), to: z.optional(day) };
const rangeInOrder = z.refine<{ from?: string | undefined; to?: string | undefined }>(
  (query) => query.from === undefined || query.to === undefined || query.from <= query.to,
  { message: '`from` must not be after `to`', path: ['from'] },
);
const rangeBounded = z.refine<{ from?: string | undefined; to?: string | undefined }>(
  (query) => query.from === undefined || query.to === undefined || Date.parse(query.to) - Date.parse(query.from) < MAX_METRIC_DAYS * DAY_MS,
  { message: `\`from\` and \`to\` may span at most ${MAX_METRIC_DAYS} days`, path: ['to'] },
);
export const mapQuery = z.strictObject({ ...rangeShape, locale: z.optional(z.enum(['en', 'ar'])) }).check(rangeInOrder, rangeBounded);
export const metricsQuery = z
  .strictObject({ ...rangeShape, interval: z.optional(z.enum(['day', 'week', 'month'])) })
  .check(rangeInOrder, rangeBounded);

const journeyMetric = z.object({
  cellKey: z.string().register(z.globalRegistry, { description: 'The metric cell, `<rowId>:<stageId>`' }),
  stageId: z.string(),
  measure: z.enum(['nps', 'csat', 'ces', 'mean', 'topBox']),
  value: z.nullable(z.number()).register(z.globalRegistry, { description: 'Over the whole range; null when nobody answered' }),
  n: z.int().register(z.globalRegistry, { description: 'Answers behind the value' }),
  marginOfError95: z.nullable(z.number()).register(z.globalRegistry, { description: '± at 95 % confidence; null below 2 answers' }),
  target: z.nullable(z.number()),
  meetsTarget: z.nullable(z.boolean()).register(z.globalRegistry, {
    description: 'value ≥ target (≤ with goodDirection down); null without a target or a value',
  }),
  series: z.array(
    z.object({
      start: z.string().register(z.globalRegistry, { description: 'First day of the period (weeks start on Monday, months on the 1st)' }),
      value: z.nullable(z.number()),
      n: z.int(),
    }),
  ),
});
export const metricsResponse = z.object({
  ok: z.literal(true),
  from: z.string(),
  to: z.string(),
  interval: z.enum(['day', 'week', 'month']),
  metrics: z.array(journeyMetric),
});

export const mapSvgResponse = z.string().register(z.globalRegistry, { description: 'The map as an SVG document (UTF-8)' });

const titleFields = { titleEn: z.optional(title), titleAr: z.optional(title), title: z.optional(title) };

/** `title` is an alias of `titleEn` (spec part 2): both at once would be ambiguous, none leaves the journey unnamed. */
function titlesGiven(body: { titleEn?: string | undefined; titleAr?: string | undefined; title?: string | undefined }) {
  return body.title !== undefined || body.titleEn !== undefined || body.titleAr !== undefined;
}
const aliasNotDoubled = z.refine<{ titleEn?: string | null | undefined; title?: string | null | undefined }>(
  (body) => !(body.title !== undefined && body.titleEn !== undefined),
  { message: 'give `title` or `titleEn`, not both (`title` is an alias of `titleEn`)', path: ['title'] },
);

export const journeyCreateBody = z
  .strictObject(titleFields)
  .check(z.refine(titlesGiven, { message: 'give at least one of `titleEn`, `titleAr` or `title`' }), aliasNotDoubled);

export const microJourneyCreateBody = z
  .strictObject({
    ...titleFields,
    stageId: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 characters of A-Z, a-z, 0-9, _ and -'))),
  })
  .check(z.refine(titlesGiven, { message: 'give at least one of `titleEn`, `titleAr` or `title`' }), aliasNotDoubled);

export const journeyPatchBody = z
  .strictObject({ titleEn: z.optional(z.nullable(title)), titleAr: z.optional(z.nullable(title)), title: z.optional(z.nullable(title)) })
  .check(aliasNotDoubled);

export type MicroJourneyCreation = z.infer<typeof microJourneyCreateBody>;
export type JourneyPatch = z.infer<typeof journeyPatchBody>;

export const versionCreateBody = z.strictObject({ fromVersionId: z.uuid(), label: z.optional(label) });
export const versionPatchBody = z.strictObject({ label });

/**
 * `{content}`. The raw size is checked before the shape, as a 413 rather than a 400: a check
 * with `when` runs whatever the shape parse found, and it throws (zod passes exceptions through)
 * because the validation middleware can only answer 400. It runs on an object only (the chain
 * refuses any other body first; `null` here threw a TypeError, a 502).
 */
export const contentBody = z.strictObject({ content: journeyContent }).check(
  z.refine(
    (body) => {
      const bytes = Buffer.byteLength(JSON.stringify(body.content) ?? '', 'utf8');
      if (bytes > CONTENT_LIMITS.rawBytes)
        throw new ContentTooLargeError(`content is ${bytes} bytes of JSON; at most ${CONTENT_LIMITS.rawBytes} are accepted`);
      return true;
    },
    { when: ({ value }) => typeof value === 'object' && value !== null && !Array.isArray(value) },
  ),
);

export const diagnostic = named(
  'JourneyDiagnostic',
  z.object({
    severity: z.enum(['error', 'warning', 'info']),
    code: z.enum(Object.keys(DIAGNOSTIC_CODES) as [keyof typeof DIAGNOSTIC_CODES, ...(keyof typeof DIAGNOSTIC_CODES)[]]),
    message: z.string(),
    path: z.string().register(z.globalRegistry, { description: "JSON Pointer (RFC 6901) into the version's `content`" }),
  }),
);

const journey = named(
  'Journey',
  z.object({
    id: z.uuid(),
    kind: z.enum(['macro', 'micro']),
    titleEn: z.nullable(z.string()),
    titleAr: z.nullable(z.string()),
    parentJourneyId: z.nullable(z.uuid()),
    stageId: z.nullable(z.string()),
    publishedVersionId: z.nullable(z.uuid()),
    versionCount: z.int(),
    version: z.int().register(z.globalRegistry, { description: "The counter behind the journey's `ETag`" }),
    createdAt: timestamp,
    updatedAt: timestamp,
    archivedAt: z.nullable(timestamp),
  }),
);
export type Journey = z.infer<typeof journey>;

const journeyVersion = named(
  'JourneyVersion',
  z.object({
    id: z.uuid(),
    journeyId: z.uuid(),
    label: z.string(),
    parentVersionId: z.nullable(z.uuid()),
    content: journeyContent,
    createdBy: z.string().register(z.globalRegistry, { description: 'Id of the Developer key that created the version' }),
    createdAt: timestamp,
    updatedAt: timestamp,
    publishedAt: z.nullable(timestamp),
    revision: z.int().register(z.globalRegistry, { description: "1 on creation, +1 on every content save; the version's `ETag`" }),
    sourceRevision: z.nullable(z.int()),
    legacyOrigin: z.nullable(z.string()),
    diagnostics: z.array(diagnostic),
  }),
);
export type JourneyVersion = z.infer<typeof journeyVersion>;

const orderedChanges = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  renamed: z.array(z.string()),
  moved: z.array(z.string()),
});
const keyedChanges = z.object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) });
const journeyDiff = named(
  'JourneyDiff',
  z.object({
    stages: orderedChanges,
    rows: z.object({ ...orderedChanges.shape, retyped: z.array(z.string()) }),
    cells: keyedChanges,
    pairs: keyedChanges,
  }),
);

export const journeyListResponse = z.object({ ok: z.literal(true), journeys: z.array(journey), pagination });
export const journeyResponse = z.object({ ok: z.literal(true), journey });
export const journeyCreatedResponse = z.object({ ok: z.literal(true), journeyId: z.uuid(), version: journeyVersion });
export const versionResponse = z.object({ ok: z.literal(true), version: journeyVersion });
export const versionListResponse = z.object({ ok: z.literal(true), versions: z.array(journeyVersion), pagination });
export const publishResponse = z.object({ ok: z.literal(true), version: journeyVersion, journey });
export const diffResponse = z.object({ ok: z.literal(true), diff: journeyDiff });
export const diagnosticsResponse = z.object({ ok: z.literal(true), diagnostics: z.array(diagnostic) });
