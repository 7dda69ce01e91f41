/** Request and response shapes of GET /surveys/{id}/summary. */
import * as z from 'zod/mini';
import { uuid } from '../../platform/schemas.ts';

const UTC_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const utcDate = (description: string) =>
  z.string().check(z.regex(UTC_DATE, 'must be a UTC date, YYYY-MM-DD')).register(z.globalRegistry, { description, format: 'date' });

export const summaryQuery = z
  .strictObject({
    versionId: z.optional(
      z.union([uuid, z.literal('all')]).register(z.globalRegistry, {
        description:
          'A version of the survey (default: the published one), or `all`: every version, a question joined across versions by its id where its type and scale did not change',
      }),
    ),
    from: z.optional(utcDate('First day counted (UTC, inclusive): responses started on or after it; default: the first response')),
    to: z.optional(utcDate('Last day counted (UTC, inclusive); default: the latest response')),
  })
  .check(
    z.refine((query) => !query.from || !query.to || query.from <= query.to, { message: '`from` must not be after `to`', path: ['from'] }),
  );

const share = z.nullable(z.number());
const margin = z
  .nullable(z.number())
  .register(z.globalRegistry, { description: 'Half-width of the 95 % confidence interval; null below 2 answers' });

const questionSummary = z.object({
  questionId: z.string(),
  type: z.string(),
  shown: z.int().register(z.globalRegistry, { description: 'Responses whose path showed the question' }),
  answered: z.int(),
  droppedOff: z.int().register(z.globalRegistry, { description: 'Unfinished responses whose last shown question is this one' }),
  options: z.optional(z.array(z.object({ optionId: z.string(), count: z.int() }))),
  scores: z.optional(z.object({ distribution: z.array(z.object({ value: z.number(), count: z.int() })), mean: share, median: share })),
  nps: z.optional(z.object({ promoters: z.int(), passives: z.int(), detractors: z.int(), score: share, marginOfError95: margin })),
  csat: z.optional(z.object({ satisfied: z.int(), total: z.int(), percent: share, marginOfError95: margin })),
  ces: z.optional(z.object({ mean: share, marginOfError95: margin })),
});

export const surveySummary = z.object({
  surveyId: z.string(),
  versionId: z.nullable(z.string()).register(z.globalRegistry, {
    description: 'The version summarised, `all`, or null when the survey has no published version',
  }),
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  responses: z.object({
    started: z.int(),
    finished: z.int(),
    completionRate: z.nullable(z.number()).register(z.globalRegistry, { description: 'finished ÷ started (0–1); null without responses' }),
    secondsToFinish: z.object({ p50: z.nullable(z.number()), p90: z.nullable(z.number()) }),
  }),
  questions: z.array(questionSummary),
});
