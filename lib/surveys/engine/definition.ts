/**
 * The survey definition: what a version holds (questions by type, visibility, option filters,
 * routes, endings). The schema checks shape and hard limits only (a failure is 400 `invalid_body`);
 * whether references, operators and values make sense is the engine's validation, which reports
 * `issues` a draft may be saved with (see validate.ts).
 */
import * as z from 'zod/mini';
import { guideLink } from '../../platform/guides.ts';
import { atMostCharacters, named } from '../../platform/schemas.ts';

export const DEFINITION_LIMITS = {
  questions: 200,
  endings: 20,
  conditionDepth: 5,
  conditionsPerGroup: 50,
  routesPerQuestion: 20,
  shownText: 2000,
  valueText: 1000,
  listValues: 100,
  choiceOptions: { min: 2, max: 100 },
  rankingOptions: { min: 2, max: 25 },
  matrixRows: { min: 1, max: 50 },
  matrixColumns: { min: 2, max: 20 },
  openTextMaxLength: 10_000,
} as const;

export const LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

function text(max: number) {
  return z.string().check(atMostCharacters(max)).register(z.globalRegistry, { maxLength: max });
}

const ID_PATTERN = /^[a-z0-9_-]{1,64}$/;
/** Question, option, row, column and ending ids: stable, so answers stay attached across versions. */
const itemId = z
  .string()
  .check(z.regex(ID_PATTERN, 'must be 1–64 of a-z, 0-9, _ and -'))
  .register(z.globalRegistry, { description: 'Stable id: 1–64 of a-z, 0-9, _ and -' });

/** Every string a respondent sees, per language; which languages must be present is validation's call. */
const shownText = z
  .strictObject({ en: z.optional(text(DEFINITION_LIMITS.shownText)), ar: z.optional(text(DEFINITION_LIMITS.shownText)) })
  .register(z.globalRegistry, { description: 'Text per language: one for each of `languages`' });
export type ShownText = z.output<typeof shownText>;

export const OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'isAnswered',
  'isSkipped',
  'greaterThan',
  'lessThan',
  'atLeast',
  'atMost',
  'includesAny',
  'includesAll',
  'excludesAll',
  'before',
  'after',
] as const;
export type Operator = (typeof OPERATORS)[number];

export type ConditionValue = string | number | boolean | string[];
const conditionValue = z.union([
  text(DEFINITION_LIMITS.valueText),
  z.number(),
  z.boolean(),
  z.array(text(DEFINITION_LIMITS.valueText)).check(z.maxLength(DEFINITION_LIMITS.listValues)),
]);

/** A condition over a subject (`question` in definitions, `attribute` in targeting rules). */
export type Condition<Subject extends string> =
  | { all: Condition<Subject>[] }
  | { any: Condition<Subject>[] }
  | ({ [key in Subject]: string } & { operator: Operator; value?: ConditionValue });
export type QuestionCondition = Condition<'question'>;
export type AttributeCondition = Condition<'attribute'>;

/** Nested `all`/`any` levels: a leaf is 0, `{all:[leaf]}` is 1. */
export function conditionDepth(condition: unknown): number {
  if (typeof condition !== 'object' || condition === null) return 0;
  const children = (condition as { all?: unknown }).all ?? (condition as { any?: unknown }).any;
  if (!Array.isArray(children)) return 0;
  let deepest = 0;
  for (const child of children) deepest = Math.max(deepest, conditionDepth(child));
  return 1 + deepest;
}

/** Leaves (subject tests) in a condition. */
export function conditionCount(condition: unknown): number {
  if (typeof condition !== 'object' || condition === null) return 0;
  const children = (condition as { all?: unknown }).all ?? (condition as { any?: unknown }).any;
  if (!Array.isArray(children)) return 1;
  let total = 0;
  for (const child of children) total += conditionCount(child);
  return total;
}

/**
 * The recursive schema; depth is checked once at the root (`boundedCondition`) so the error
 * names the limit instead of a nested union mismatch.
 */
function recursiveCondition<Subject extends 'question' | 'attribute'>(subject: Subject): z.ZodMiniType<Condition<Subject>> {
  const leaf = z.strictObject({ [subject]: itemIdOrKey(subject), operator: z.enum(OPERATORS), value: z.optional(conditionValue) });
  const condition: z.ZodMiniType<Condition<Subject>> = z.lazy(() =>
    z.union([
      z.strictObject({ all: z.array(condition).check(z.minLength(1), z.maxLength(DEFINITION_LIMITS.conditionsPerGroup)) }),
      z.strictObject({ any: z.array(condition).check(z.minLength(1), z.maxLength(DEFINITION_LIMITS.conditionsPerGroup)) }),
      leaf,
    ]),
  ) as unknown as z.ZodMiniType<Condition<Subject>>;
  return condition;
}

/**
 * How a condition is documented in OpenAPI. Written out by hand because a recursive zod schema
 * becomes a `$defs` reference that an OpenAPI document cannot resolve; nested conditions are
 * described rather than repeated five levels deep.
 */
function conditionJsonSchema(subject: 'question' | 'attribute'): Record<string, unknown> {
  const group = (key: 'all' | 'any') => ({
    type: 'object',
    required: [key],
    additionalProperties: false,
    properties: {
      [key]: {
        type: 'array',
        minItems: 1,
        maxItems: DEFINITION_LIMITS.conditionsPerGroup,
        items: {
          type: 'object',
          description: `A nested condition of the same shape (${key === 'all' ? 'every one must hold' : 'one must hold'})`,
        },
      },
    },
  });
  return {
    description:
      `A condition: \`{all:[…]}\`, \`{any:[…]}\` or \`{${subject}, operator, value?}\`; at most ${DEFINITION_LIMITS.conditionDepth} nested all/any levels. ` +
      `Which operators fit which type, and what value each takes: the guide ${guideLink('surveys.md', 'Surveys')}, its “Logic”.`,
    anyOf: [
      group('all'),
      group('any'),
      {
        type: 'object',
        required: [subject, 'operator'],
        additionalProperties: false,
        properties: {
          [subject]: { type: 'string' },
          operator: { type: 'string', enum: [...OPERATORS] },
          value: {
            anyOf: [
              { type: 'string' },
              { type: 'number' },
              { type: 'boolean' },
              { type: 'array', items: { type: 'string' }, maxItems: DEFINITION_LIMITS.listValues },
            ],
          },
        },
      },
    ],
  };
}

/** A condition over `subject` (`question` in definitions, `attribute` in targeting rules). */
export function conditionSchema<Subject extends 'question' | 'attribute'>(subject: Subject) {
  const recursive = recursiveCondition(subject);
  return z
    .pipe(
      z.unknown().check(
        z.superRefine((value, ctx) => {
          const result = recursive.safeParse(value);
          if (result.success) return;
          for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path, input: value });
        }),
      ),
      z.transform((value) => value as Condition<Subject>),
    )
    .register(z.globalRegistry, conditionJsonSchema(subject));
}

function itemIdOrKey(subject: 'question' | 'attribute') {
  return subject === 'question' ? itemId : attributeKey;
}

const ATTRIBUTE_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
export const attributeKey = z
  .string()
  .check(z.regex(ATTRIBUTE_KEY_PATTERN, 'must start with a letter and be 1–64 of letters, digits, _ . and -'));

function bounded<T>(schema: z.ZodMiniType<T>) {
  return schema.check(
    z.refine(
      (condition) => conditionDepth(condition) <= DEFINITION_LIMITS.conditionDepth,
      `conditions nest at most ${DEFINITION_LIMITS.conditionDepth} all/any levels`,
    ),
  );
}

const questionCondition = named('SurveyCondition', bounded(conditionSchema('question')));

const option = z.strictObject({ id: itemId, label: shownText });
export type ChoiceOption = z.output<typeof option>;

const route = z.strictObject({
  when: questionCondition,
  goTo: itemId.register(z.globalRegistry, { description: 'A later question id or an ending id' }),
});

const optionFilter = z.strictObject({
  sourceQuestionId: itemId,
  mode: z.enum(['selected', 'unselected']),
});

const base = {
  id: itemId,
  headline: shownText,
  description: z.optional(shownText),
  required: z.boolean(),
  visibleIf: z.optional(questionCondition),
  routes: z.optional(z.array(route).check(z.maxLength(DEFINITION_LIMITS.routesPerQuestion))),
};
const scaleLabels = { lowerLabel: z.optional(shownText), upperLabel: z.optional(shownText) };

function options(limits: { min: number; max: number }) {
  return z.array(option).check(z.minLength(limits.min), z.maxLength(limits.max));
}

const INPUT_TYPES = ['text', 'email', 'url', 'number', 'phone'] as const;

const openText = z.strictObject({
  ...base,
  type: z.literal('openText'),
  inputType: z.optional(z.enum(INPUT_TYPES)),
  maxLength: z.optional(z.int().check(z.minimum(1), z.maximum(DEFINITION_LIMITS.openTextMaxLength))),
  placeholder: z.optional(shownText),
});
/** Single and multiple choice differ only in how many options an answer picks. */
function choiceQuestion<T extends 'singleChoice' | 'multipleChoice'>(type: T) {
  return z.strictObject({
    ...base,
    type: z.literal(type),
    options: options(DEFINITION_LIMITS.choiceOptions),
    allowOther: z.optional(z.boolean()),
    shuffle: z.optional(z.boolean()),
    optionFilter: z.optional(optionFilter),
  });
}
const singleChoice = choiceQuestion('singleChoice');
const multipleChoice = choiceQuestion('multipleChoice');
const nps = z.strictObject({ ...base, type: z.literal('nps'), ...scaleLabels });
const rating = z.strictObject({
  ...base,
  type: z.literal('rating'),
  scale: z.int().check(z.minimum(3), z.maximum(10)),
  style: z.enum(['star', 'number', 'smiley']),
  ...scaleLabels,
});
const csat = z.strictObject({ ...base, type: z.literal('csat'), ...scaleLabels });
const ces = z.strictObject({ ...base, type: z.literal('ces'), ...scaleLabels });
const date = z.strictObject({ ...base, type: z.literal('date') });
const matrix = z.strictObject({
  ...base,
  type: z.literal('matrix'),
  rows: options(DEFINITION_LIMITS.matrixRows),
  columns: options(DEFINITION_LIMITS.matrixColumns),
});
const ranking = z.strictObject({
  ...base,
  type: z.literal('ranking'),
  options: options(DEFINITION_LIMITS.rankingOptions),
  shuffle: z.optional(z.boolean()),
  optionFilter: z.optional(optionFilter),
});
const consent = z.strictObject({ ...base, type: z.literal('consent'), label: z.optional(shownText) });
const statement = z.strictObject({ ...base, type: z.literal('statement'), buttonLabel: z.optional(shownText) });

const question = named(
  'SurveyQuestion',
  z.discriminatedUnion('type', [openText, singleChoice, multipleChoice, nps, rating, csat, ces, date, matrix, ranking, consent, statement]),
);
export type Question = z.output<typeof question>;

const ending = named('SurveyEnding', z.strictObject({ id: itemId, headline: shownText, description: z.optional(shownText) }));

export const surveyDefinition = named(
  'SurveyDefinition',
  z
    .strictObject({
      languages: z.array(z.enum(LANGUAGES)).check(
        z.minLength(1),
        z.maxLength(LANGUAGES.length),
        z.refine((languages) => new Set(languages).size === languages.length, 'must not repeat a language'),
      ),
      questions: z.array(question).check(z.maxLength(DEFINITION_LIMITS.questions)),
      endings: z.array(ending).check(z.minLength(1), z.maxLength(DEFINITION_LIMITS.endings)),
    })
    .register(z.globalRegistry, {
      description:
        'Questions in order, each with optional `visibleIf`, `optionFilter` and `routes` (first match wins, forward only); running past the last question reaches the first ending.',
    }),
);
export type SurveyDefinition = z.output<typeof surveyDefinition>;

/** What a new survey's first draft holds: no questions yet and a thank-you ending. */
export function starterDefinition(language: Language): SurveyDefinition {
  const headline = language === 'ar' ? { ar: 'شكرًا لك!' } : { en: 'Thank you!' };
  return { languages: [language], questions: [], endings: [{ id: 'thank-you', headline }] };
}
