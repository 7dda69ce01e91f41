/**
 * Schemas of survey responses: what a respondent's app sends (answers, respondent, meta), what the
 * API returns (a response; a tombstone in the change feed), and the list's filters. Whether the
 * answers make sense for the survey is the engine's (lib/surveys/engine/response.ts).
 */
import * as z from 'zod/mini';
import { named, pageQueryShape, timestamp, uuid } from '../../platform/schemas.ts';
import { LANGUAGES } from '../engine/definition.ts';

/** Answers beyond this much UTF-8 JSON are 413 `response_too_large`. */
export const ANSWERS_MAX_BYTES = 64 * 1024;
export const ERASE_BATCH = 1000;
const RESPONSE_STATUSES = ['partial', 'finished'] as const;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

const questionId = z.string().check(z.minLength(1), z.maxLength(64));
const answerValue = z.union([
  z.string().check(z.maxLength(20_000)),
  z.number(),
  z.boolean(),
  z.array(z.string().check(z.maxLength(64))).check(z.maxLength(100)),
  z.record(z.string().check(z.maxLength(64)), z.string().check(z.maxLength(64))),
]);

const answerCount = z.refine((answers: unknown) => Object.keys(answers as object).length <= 200, 'at most 200 answers');
const ANSWER_TYPES =
  'Answers by question id: openText a string; singleChoice an option id; multipleChoice and ranking arrays of option ids; nps, rating, csat, ces integers; date `YYYY-MM-DD`; matrix `{rowId: columnId}`; consent a boolean';

const attributeValue = z.union([z.string().check(z.maxLength(200)), z.number(), z.boolean()]);
const attributes = z
  .record(z.string().check(z.minLength(1), z.maxLength(64)), attributeValue)
  .check(z.refine((value) => Object.keys(value).length <= 50, 'at most 50 attributes'))
  .register(z.globalRegistry, { description: "The respondent's audience attributes, checked against the survey's targeting rules" });
// A function, not one schema: a description registered on a shared instance would read on every use of it.
const externalId = () => z.string().check(z.minLength(1), z.maxLength(200));
const email = z.email().check(z.maxLength(254));

const respondentInput = z.strictObject({
  externalId: z.optional(externalId()),
  email: z.optional(email),
  attributes: z.optional(attributes),
});
const meta = z.strictObject({
  source: z.optional(z.string().check(z.maxLength(100))),
  channel: z.optional(z.string().check(z.maxLength(100))),
});

export const responseParams = z.strictObject({ id: uuid, responseId: uuid });

export const submitResponseBody = z.strictObject({
  answers: z.record(questionId, answerValue).check(answerCount).register(z.globalRegistry, { description: ANSWER_TYPES }),
  finished: z.optional(z.boolean()).register(z.globalRegistry, { description: 'Default true; false keeps the response open to PATCH' }),
  language: z.optional(z.enum(LANGUAGES)),
  respondent: z.optional(respondentInput),
  meta: z.optional(meta),
});
export type SubmitResponseBody = z.output<typeof submitResponseBody>;

export const continueResponseBody = z.strictObject({
  answers: z
    .optional(z.record(questionId, z.nullable(answerValue)).check(answerCount))
    .register(z.globalRegistry, { description: `Merged into the stored answers; \`null\` removes one. ${ANSWER_TYPES}` }),
  finished: z.optional(z.literal(true)).register(z.globalRegistry, { description: 'true finishes the response; it is then immutable' }),
});
export type ContinueResponseBody = z.output<typeof continueResponseBody>;

export const listResponsesQuery = z.strictObject({
  ...pageQueryShape,
  versionId: z.optional(z.uuid().register(z.globalRegistry, { description: 'Only responses pinned to this version' })),
  status: z.optional(z.enum(RESPONSE_STATUSES).register(z.globalRegistry, { description: 'Only partial or only finished responses' })),
  respondent: z.optional(externalId().register(z.globalRegistry, { description: "Only this respondent's responses (their externalId)" })),
  updatedSince: z.optional(
    z.iso.datetime().register(z.globalRegistry, {
      description:
        'Change feed: responses created, changed, deleted or erased after this time, oldest change first; deletions as `{id, deleted: true, deletedAt}`',
    }),
  ),
});

export const eraseBody = z.union([z.strictObject({ externalId: externalId() }), z.strictObject({ email })], {
  error: 'give one of `externalId` or `email`, not both',
});
export type EraseBody = z.output<typeof eraseBody>;

export const surveyResponse = named(
  'SurveyResponse',
  z.object({
    id: uuid,
    surveyId: uuid,
    versionId: uuid,
    status: z.enum(RESPONSE_STATUSES),
    answers: z.record(z.string(), answerValue),
    path: z.array(z.string()).register(z.globalRegistry, { description: 'The questions shown, in order' }),
    ending: z.nullable(z.string()).register(z.globalRegistry, { description: 'The ending reached; null until finished' }),
    language: z.enum(LANGUAGES),
    respondent: z.object({ externalId: z.nullable(z.string()), email: z.nullable(z.string()) }),
    attributes: z.nullable(z.record(z.string(), attributeValue)),
    meta: z.nullable(z.object({ source: z.optional(z.string()), channel: z.optional(z.string()) })),
    revision: z.int().register(z.globalRegistry, { description: '1 on create, +1 on each change; the ETag' }),
    createdAt: timestamp,
    updatedAt: timestamp,
    finishedAt: z.nullable(timestamp),
    secondsToFinish: z.nullable(z.number()),
  }),
);
export type SurveyResponse = z.output<typeof surveyResponse>;

export const responseTombstone = z.object({ id: uuid, deleted: z.literal(true), deletedAt: timestamp });
export type ResponseTombstone = z.output<typeof responseTombstone>;
