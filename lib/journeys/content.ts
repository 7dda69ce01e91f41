/**
 * The content of a journey version, `schema: 1`: stages (columns) × rows (lanes) with a cell per
 * row and stage. This schema rejects only what is wrong in itself (types, id pattern, lengths,
 * unknown row types or channels, malformed cell keys); what is well-formed but inconsistent (a
 * cell naming a missing row, a cell shaped for another row type…) is accepted and reported by
 * diagnostics.ts, so a half-finished map can still be saved.
 */
import * as z from 'zod/mini';
import { named } from '../platform/schemas.ts';

const JOURNEY_CONTENT_LIMITS = {
  id: 64,
  title: 200,
  text: 4000,
  unit: 50,
} as const;

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** `<rowId>:<stageId>`; the id pattern has no `:`, so the split is unambiguous. */
const CELL_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_-]{1,64}$/;

/** Lengths are counted in characters (code points), not UTF-16 units, so Arabic and emoji count as users see them. */
function characters(max: number) {
  return z
    .string()
    .check(z.refine((value) => countCharacters(value) <= max, { message: `must be at most ${max} characters` }))
    .register(z.globalRegistry, { maxLength: max });
}

function countCharacters(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

const contentId = z.string().check(z.regex(ID_PATTERN, 'must be 1-64 characters of A-Z, a-z, 0-9, _ and -'));
const title = characters(JOURNEY_CONTENT_LIMITS.title);
const text = characters(JOURNEY_CONTENT_LIMITS.text);

const CHANNELS = ['web', 'mobile_app', 'email', 'phone', 'sms', 'whatsapp', 'chat', 'social', 'branch', 'kiosk', 'mail', 'other'] as const;
const ITEM_KINDS = ['pain', 'gain', 'opportunity', 'insight', 'action', 'touchpoint'] as const;
const LINK_KINDS = ['idea', 'sop', 'survey', 'journey'] as const;
const ROW_TYPES = ['text', 'emotion', 'channels', 'items', 'metric', 'links'] as const;
export type RowType = (typeof ROW_TYPES)[number];
export type LinkKind = (typeof LINK_KINDS)[number];

const METRIC_MEASURES = ['nps', 'csat', 'ces', 'mean', 'topBox'] as const;
export type MetricMeasure = (typeof METRIC_MEASURES)[number];

/**
 * A metric cell bound to a survey question: its value is computed from the survey's responses
 * (GET …/metrics), not typed. `versionId` pins one survey version; without it every version where
 * the question kept its type and scale counts. Optional, so content stays `schema: 1`.
 */
const metricSource = named(
  'JourneyMetricSource',
  z.strictObject({
    surveyId: z.uuid(),
    questionId: z.string().check(z.regex(/^[a-z0-9_-]{1,64}$/, 'must be a survey question id: 1-64 of a-z, 0-9, _ and -')),
    versionId: z.optional(z.uuid()),
    measure: z.enum(METRIC_MEASURES),
  }),
);
export type MetricSource = z.infer<typeof metricSource>;

const microJourneyPair = z.strictObject({
  journeyId: z.uuid(),
  versionId: z.optional(z.uuid()),
});

const stage = z.strictObject({
  id: contentId,
  titleEn: z.optional(title),
  titleAr: z.optional(title),
  microJourneyPairs: z.array(microJourneyPair),
});

const rowTitles = { id: contentId, titleEn: z.optional(title), titleAr: z.optional(title) };
const row = z.discriminatedUnion('type', [
  z.strictObject({ ...rowTitles, type: z.literal('text') }),
  z.strictObject({ ...rowTitles, type: z.literal('emotion') }),
  z.strictObject({ ...rowTitles, type: z.literal('channels') }),
  z.strictObject({ ...rowTitles, type: z.literal('items'), kind: z.enum(ITEM_KINDS) }),
  z.strictObject({ ...rowTitles, type: z.literal('metric') }),
  z.strictObject({ ...rowTitles, type: z.literal('links') }),
]);

/** One schema per row type; a cell must match one of them (which one is checked against its row by diagnostics). */
const CELL_SHAPES = {
  text: z.strictObject({ textEn: z.optional(text), textAr: z.optional(text) }),
  emotion: z.strictObject({
    score: z.int().check(z.minimum(-2), z.maximum(2)),
    noteEn: z.optional(text),
    noteAr: z.optional(text),
  }),
  channels: z.strictObject({ channels: z.array(z.enum(CHANNELS)) }),
  items: z.strictObject({
    items: z.array(z.strictObject({ id: contentId, textEn: z.optional(text), textAr: z.optional(text) })),
  }),
  metric: z.strictObject({
    value: z.optional(z.number()),
    unit: z.optional(characters(JOURNEY_CONTENT_LIMITS.unit)),
    target: z.optional(z.number()),
    goodDirection: z.optional(z.enum(['up', 'down'])),
    source: z.optional(metricSource),
  }),
  links: z.strictObject({ refs: z.array(z.strictObject({ kind: z.enum(LINK_KINDS), id: contentId })) }),
} satisfies Record<RowType, z.ZodMiniType>;

const cell = z.union([
  CELL_SHAPES.text,
  CELL_SHAPES.emotion,
  CELL_SHAPES.channels,
  CELL_SHAPES.items,
  CELL_SHAPES.metric,
  CELL_SHAPES.links,
]);

export const journeyContent = named(
  'JourneyContent',
  z.strictObject({
    schema: z.literal(1),
    stages: z.array(stage),
    rows: z.array(row),
    cells: z.record(z.string().check(z.regex(CELL_KEY_PATTERN, 'must be "<rowId>:<stageId>"')), cell),
  }),
);

export type JourneyContent = z.infer<typeof journeyContent>;
export type JourneyCell = JourneyContent['cells'][string];

export function emptyJourneyContent(): JourneyContent {
  return { schema: 1, stages: [], rows: [], cells: {} };
}

export function splitCellKey(key: string): { rowId: string; stageId: string } {
  const at = key.indexOf(':');
  return { rowId: key.slice(0, at), stageId: key.slice(at + 1) };
}

/** The row types whose cell shape this cell has; `{}` (an empty cell) fits every type. */
export function cellShapeTypes(value: JourneyCell): RowType[] {
  if (Object.keys(value).length === 0) return [...ROW_TYPES];
  return ROW_TYPES.filter((type) => CELL_SHAPES[type].safeParse(value).success);
}
