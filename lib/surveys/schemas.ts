/**
 * Schemas of the Surveys area: request bodies, path parameters and the returned records (Survey,
 * SurveyVersion, SurveyDesign). The definition itself is lib/surveys/engine/definition.ts; what a
 * definition means (validation, simulation, breaking changes) is the engine's.
 */
import * as z from 'zod/mini';
import { guideLink } from '../platform/guides.ts';
import { atMostCharacters, named, pageQueryShape, timestamp, uuid } from '../platform/schemas.ts';
import { LANGUAGES, surveyDefinition } from './engine/definition.ts';
import { audienceAttribute, targetingRules } from './engine/targeting.ts';

export const SURVEY_LIMITS = { name: 200, designName: 100, font: 100, url: 2000, designs: 50, versions: 50 } as const;
/** A definition's UTF-8 JSON beyond this is 413 `definition_too_large` (issue 11). */
export const DEFINITION_MAX_BYTES = 1024 * 1024;

/** Non-blank text of 1..max characters (code points, as JSON Schema counts). */
function text(max: number) {
  return z
    .string()
    .check(
      z.minLength(1, 'is required'),
      atMostCharacters(max),
      z.refine((value) => value.trim().length > 0, 'must not be blank'),
    )
    .register(z.globalRegistry, { maxLength: max });
}

const httpsUrl = z
  .string()
  .check(
    z.maxLength(SURVEY_LIMITS.url),
    z.refine((value) => URL.canParse(value) && new URL(value).protocol === 'https:', 'must be an https URL'),
  )
  .register(z.globalRegistry, { format: 'uri', description: 'An https URL' });

const color = z
  .string()
  .check(z.regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour #RRGGBB'))
  .register(z.globalRegistry, { description: 'A colour as #RRGGBB', example: '#1F6FEB' });

const SURVEY_STATUSES = ['draft', 'published', 'closed', 'archived'] as const;
/** Statuses a list can ask for: archived surveys are never listed. */
const LISTED_STATUSES = ['draft', 'published', 'closed'] as const;
export type ListedStatus = (typeof LISTED_STATUSES)[number];
const VERSION_STATUSES = ['draft', 'published', 'superseded'] as const;

// ---- path and query ---------------------------------------------------------------------------

export const surveyIdParams = z.strictObject({ id: z.uuid().register(z.globalRegistry, { description: 'The survey id' }) });
export const versionParams = z.strictObject({ id: uuid, versionId: uuid });
export const designIdParams = z.strictObject({ designId: uuid });
export const listSurveysQuery = z.strictObject({
  ...pageQueryShape,
  status: z.optional(z.enum(LISTED_STATUSES).register(z.globalRegistry, { description: 'Only surveys in this status' })),
});

// ---- records ----------------------------------------------------------------------------------

export const issue = named(
  'SurveyIssue',
  z.object({
    severity: z.enum(['error', 'warning']),
    code: z.string(),
    message: z.string(),
    path: z.string().register(z.globalRegistry, { description: 'JSON Pointer into the definition' }),
  }),
);

export const survey = named(
  'Survey',
  z.object({
    id: uuid,
    name: z.string(),
    nameAr: z.nullable(z.string()),
    language: z.enum(LANGUAGES),
    version: z.int().register(z.globalRegistry, { description: "The counter behind the survey's ETag" }),
    status: z.enum(SURVEY_STATUSES),
    themeLogoUrl: z.nullable(z.string()),
    themePrimaryColor: z.nullable(z.string()),
    designId: z.nullable(uuid),
    targetingRules: z.nullable(targetingRules),
    publishedVersionId: z.nullable(uuid),
    createdAt: timestamp,
    updatedAt: timestamp,
    publishedAt: z.nullable(timestamp),
    archivedAt: z.nullable(timestamp),
  }),
);
export type Survey = z.output<typeof survey>;

const versionFields = {
  id: uuid,
  surveyId: uuid,
  number: z.int(),
  status: z.enum(VERSION_STATUSES),
  basedOnVersionId: z.nullable(uuid),
  createdBy: z.string().register(z.globalRegistry, { description: 'Id of the Developer key that made it' }),
  createdAt: timestamp,
  publishedAt: z.nullable(timestamp),
};

/** A version as listed by GET /surveys/{id}: no definition, so the read stays small. */
export const versionSummary = named('SurveyVersionSummary', z.object(versionFields));
export type VersionSummary = z.output<typeof versionSummary>;

export const surveyVersion = named(
  'SurveyVersion',
  z.object({
    ...versionFields,
    revision: z.int().register(z.globalRegistry, { description: "Bumped by every save; the version's ETag" }),
    definition: surveyDefinition,
    issues: z.array(issue),
    updatedAt: timestamp,
  }),
);
export type SurveyVersion = z.output<typeof surveyVersion>;

export const surveyDesign = named(
  'SurveyDesign',
  z.object({
    id: uuid,
    name: z.string(),
    primaryColor: z.string(),
    backgroundColor: z.nullable(z.string()),
    logoUrl: z.nullable(z.string()),
    font: z.nullable(z.string()),
    isDefault: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type SurveyDesign = z.output<typeof surveyDesign>;

// ---- bodies -----------------------------------------------------------------------------------

export const createSurveyBody = z.strictObject({
  name: text(SURVEY_LIMITS.name),
  language: z._default(z.enum(LANGUAGES), 'en'),
});

export const updateSurveyBody = z.strictObject({
  name: z.optional(text(SURVEY_LIMITS.name)),
  nameAr: z.optional(z.nullable(text(SURVEY_LIMITS.name))),
  themeLogoUrl: z.optional(z.nullable(httpsUrl)),
  themePrimaryColor: z.optional(z.nullable(color)),
  designId: z.optional(z.nullable(uuid)),
  targetingRules: z.optional(z.nullable(targetingRules)),
});
export type SurveyPatch = z.output<typeof updateSurveyBody>;

export const createVersionBody = z.strictObject({ fromVersionId: z.optional(uuid) });
export const replaceVersionBody = z.strictObject({ definition: surveyDefinition });
export const validateBody = z.strictObject({ definition: surveyDefinition });
export const publishBody = z.strictObject({ versionId: uuid, acknowledgeBreakingChanges: z.optional(z.boolean()) });

const answerValue = z.union([
  z.string().check(z.maxLength(20_000)),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.string().check(z.maxLength(64))).check(z.maxLength(100)),
  z.record(z.string().check(z.maxLength(64)), z.string().check(z.maxLength(64))),
]);
export const simulateBody = z.strictObject({
  answers: z
    .record(z.string().check(z.maxLength(64)), answerValue)
    .check(z.refine((answers) => Object.keys(answers).length <= 200, 'at most 200 answers'))
    .register(z.globalRegistry, {
      description: `Answers by question id (each type's value: the guide ${guideLink('surveys.md', 'Surveys')}, its “Simulation answers”)`,
    }),
  language: z.optional(z.enum(LANGUAGES)),
});

export const createDesignBody = z.strictObject({
  name: text(SURVEY_LIMITS.designName),
  primaryColor: color,
  backgroundColor: z.optional(color),
  logoUrl: z.optional(httpsUrl),
  font: z.optional(text(SURVEY_LIMITS.font)),
});
export const updateDesignBody = z.strictObject({
  name: z.optional(text(SURVEY_LIMITS.designName)),
  primaryColor: z.optional(color),
  backgroundColor: z.optional(z.nullable(color)),
  logoUrl: z.optional(z.nullable(httpsUrl)),
  font: z.optional(z.nullable(text(SURVEY_LIMITS.font))),
});
export type DesignPatch = z.output<typeof updateDesignBody>;

// ---- responses --------------------------------------------------------------------------------

export const simulationRun = z.object({
  path: z.array(z.string()),
  skipped: z.array(z.string()),
  options: z.record(z.string(), z.array(z.string())),
  ending: z.nullable(z.string()).register(z.globalRegistry, {
    description: 'The ending reached; null when the walk stops at a required question left unanswered',
  }),
  problems: z.array(z.object({ questionId: z.string(), code: z.string(), message: z.string() })),
});

/** One breaking change found by publish: the `changes` of its 409 `breaking_changes`. */
export const breakingChange = z.object({
  kind: z.string().register(z.globalRegistry, {
    description:
      'question_removed, type_changed, option_removed, option_reided, row_removed, column_removed, scale_changed, input_type_changed, ' +
      'or journey_metric_unbound (a published journey version computes a metric from a question this removes or retypes)',
  }),
  questionId: z.string(),
  optionId: z.optional(z.string()),
  journeyId: z.optional(z.uuid()),
  versionId: z.optional(z.uuid().register(z.globalRegistry, { description: 'journey_metric_unbound: the published journey version' })),
  detail: z.string(),
});

export const audienceAttributes = z.array(audienceAttribute);
