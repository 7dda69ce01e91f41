import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Question, SurveyDefinition } from '../../lib/surveys/engine/definition.ts';
import { replayResponse } from '../../lib/surveys/engine/response.ts';
import { simulate } from '../../lib/surveys/engine/simulate.ts';
import { matchesTargeting, type TargetingRules } from '../../lib/surveys/engine/targeting.ts';

const t = (en: string) => ({ en });
const options = (...ids: string[]) => ids.map((id) => ({ id, label: t(id) }));
const q = (question: Record<string, unknown>) => ({ headline: t(String(question.id)), required: false, ...question }) as Question;
const definition = (questions: Question[], endings = ['done']): SurveyDefinition => ({
  languages: ['en'],
  questions,
  endings: endings.map((id) => ({ id, headline: t(id) })),
});

const survey = definition(
  [
    q({
      id: 'plan',
      type: 'singleChoice',
      required: true,
      options: options('free', 'pro', 'team'),
      routes: [{ when: { question: 'plan', operator: 'equals', value: 'team' }, goTo: 'team-end' }],
    }),
    q({ id: 'channels', type: 'multipleChoice', required: true, options: options('chat', 'mail', 'api') }),
    q({
      id: 'favourite',
      type: 'singleChoice',
      required: true,
      options: options('chat', 'mail', 'api'),
      optionFilter: { sourceQuestionId: 'channels', mode: 'selected' },
    }),
    q({ id: 'score', type: 'nps', required: true }),
    q({ id: 'why', type: 'openText', maxLength: 10, visibleIf: { question: 'score', operator: 'atMost', value: 6 } }),
    q({ id: 'email', type: 'openText', inputType: 'email' }),
  ],
  ['done', 'team-end'],
);

const issuesOf = (answers: Record<string, unknown>, finished: boolean) =>
  replayResponse(survey, answers, finished).issues.map((issue) => `${issue.code}@${issue.path}`);

describe('replayResponse', () => {
  const cases: { name: string; answers: Record<string, unknown>; finished: boolean; issues: string[] }[] = [
    { name: 'a full valid path', answers: { plan: 'pro', channels: ['chat'], favourite: 'chat', score: 9 }, finished: true, issues: [] },
    { name: 'routing to an ending skips the rest', answers: { plan: 'team' }, finished: true, issues: [] },
    {
      name: 'an answer to a question a route jumped over',
      answers: { plan: 'team', score: 9 },
      finished: true,
      issues: ['answer_not_shown@/answers/score'],
    },
    {
      name: 'an answer to a question hidden by visibleIf',
      answers: { plan: 'pro', channels: ['chat'], favourite: 'chat', score: 9, why: 'slow' },
      finished: true,
      issues: ['answer_not_shown@/answers/why'],
    },
    {
      name: 'an option the filter does not offer',
      answers: { plan: 'pro', channels: ['chat'], favourite: 'mail', score: 9 },
      finished: true,
      issues: ['option_not_offered@/answers/favourite', 'required_unanswered@/answers/favourite'],
    },
    {
      name: 'a required question on the path left unanswered, finished',
      answers: { plan: 'pro', channels: ['chat'] },
      finished: true,
      issues: ['required_unanswered@/answers/favourite'],
    },
    { name: 'the same answers, partial', answers: { plan: 'pro', channels: ['chat'] }, finished: false, issues: [] },
    {
      name: 'a wrong type beyond where the walk stops (partial)',
      answers: { plan: 'pro', score: 'excellent' },
      finished: false,
      issues: ['invalid_answer@/answers/score'],
    },
    {
      name: 'out of the scale beyond the stop',
      answers: { plan: 'pro', score: 11 },
      finished: false,
      issues: ['invalid_answer@/answers/score'],
    },
    {
      name: 'an option the question never has, beyond the stop',
      answers: { plan: 'pro', favourite: 'fax' },
      finished: false,
      issues: ['option_not_offered@/answers/favourite'],
    },
    {
      name: 'open text past maxLength and not its input type',
      answers: { plan: 'pro', channels: ['api'], favourite: 'api', score: 3, why: 'far too slow today', email: 'nope' },
      finished: true,
      issues: ['invalid_answer@/answers/why', 'invalid_answer@/answers/email'],
    },
    { name: 'an unknown question', answers: { plan: 'team', ghost: 1 }, finished: true, issues: ['unknown_question@/answers/ghost'] },
    {
      name: 'a finished response with no answer',
      answers: {},
      finished: true,
      issues: ['required_unanswered@/answers/plan', 'no_answers@/answers'],
    },
    { name: 'a partial response with no answer yet', answers: {}, finished: false, issues: [] },
  ];
  it.each(cases)('$name', ({ answers, finished, issues }) => {
    expect(issuesOf(answers, finished)).toEqual(issues);
  });

  it('keeps the path shown and the ending of a finished response', () => {
    expect(replayResponse(survey, { plan: 'pro', channels: ['chat'], favourite: 'chat', score: 4 }, true)).toMatchObject({
      path: ['plan', 'channels', 'favourite', 'score', 'why', 'email'],
      ending: 'done',
    });
    expect(replayResponse(survey, { plan: 'team' }, true)).toMatchObject({ path: ['plan'], ending: 'team-end' });
  });

  it('ends a partial path at the question the respondent is on, with no ending', () => {
    expect(replayResponse(survey, { plan: 'pro', channels: ['chat'] }, false)).toEqual({
      issues: [],
      path: ['plan', 'channels', 'favourite'],
      ending: null,
    });
    expect(replayResponse(survey, {}, false).path).toEqual(['plan']);
  });

  it('reports through simulate what it used to miss beyond a required question left unanswered', () => {
    const run = simulate(survey, { plan: 'pro', score: 'excellent' });
    expect(run.problems.map((problem) => `${problem.questionId}:${problem.code}`)).toEqual([
      'channels:required_unanswered',
      'score:invalid_answer',
    ]);
  });
});

const kinds = ['nps', 'singleChoice', 'multipleChoice', 'openText', 'consent'] as const;
const generatedSurvey = fc
  .array(fc.record({ kind: fc.constantFrom(...kinds), required: fc.boolean(), hiddenBelow: fc.option(fc.integer({ min: 0, max: 10 })) }), {
    minLength: 1,
    maxLength: 7,
  })
  .map((specs) =>
    definition(
      specs.map(({ kind, required, hiddenBelow }, i) => {
        const previous = specs[i - 1];
        const visibleIf =
          i > 0 && previous?.kind === 'nps' && hiddenBelow !== null
            ? { question: `q${i - 1}`, operator: 'atLeast', value: hiddenBelow }
            : undefined;
        return q({
          id: `q${i}`,
          type: kind,
          required,
          ...(kind === 'singleChoice' || kind === 'multipleChoice' ? { options: options('x', 'y', 'z') } : {}),
          ...(visibleIf ? { visibleIf } : {}),
        });
      }),
    ),
  );
const anyAnswer = fc.oneof(
  fc.integer({ min: -2, max: 12 }),
  fc.constantFrom('x', 'y', 'w', 'excellent', ''),
  fc.subarray(['x', 'y', 'z', 'w']),
  fc.boolean(),
);
const surveyAndAnswers = generatedSurvey.chain((def) =>
  fc.record({ def: fc.constant(def), answers: fc.dictionary(fc.constantFrom(...def.questions.map((question) => question.id)), anyAnswer) }),
);

describe('replayResponse properties', () => {
  it('a partial response is held to every rule of a finished one except completeness, and its path is a prefix', () => {
    fc.assert(
      fc.property(surveyAndAnswers, ({ def, answers }) => {
        const partial = replayResponse(def, answers, false);
        const finished = replayResponse(def, answers, true);
        const completeness = new Set(['required_unanswered', 'no_answers', 'no_ending']);
        const key = (issue: { code: string; path: string }) => `${issue.code}@${issue.path}`;
        expect(partial.issues.map(key)).toEqual(finished.issues.filter((issue) => !completeness.has(issue.code)).map(key));
        expect(finished.path.slice(0, partial.path.length)).toEqual(partial.path);
        expect(partial.ending).toBeNull();
      }),
    );
  });

  it('never lets a value of the wrong type through, wherever the walk stops', () => {
    fc.assert(
      fc.property(generatedSurvey, fc.nat(), fc.dictionary(fc.constantFrom('q0', 'q1'), fc.constantFrom('x', 'y')), (def, pick, before) => {
        const target = def.questions[pick % def.questions.length] as Question;
        const wrong = target.type === 'nps' ? 'excellent' : target.type === 'consent' ? 7 : { not: 'an answer' };
        const answers = { ...before, [target.id]: wrong };
        const paths = replayResponse(def, answers, false).issues.map((issue) => issue.path);
        expect(paths).toContain(`/answers/${target.id}`);
      }),
    );
  });
});

describe('matchesTargeting', () => {
  const rules: TargetingRules = {
    filters: {
      all: [
        { attribute: 'country', operator: 'includesAny', value: ['AE', 'SA'] },
        { attribute: 'orders', operator: 'atLeast', value: 3 },
        {
          any: [
            { attribute: 'joined', operator: 'before', value: '2025-01-01' },
            { attribute: 'vip', operator: 'equals', value: true },
          ],
        },
      ],
    },
  } as TargetingRules;
  it.each([
    [{ country: 'AE', orders: 5, joined: '2024-03-01' }, true],
    [{ country: 'ae', orders: 3, vip: true }, true],
    [{ country: 'EG', orders: 5, vip: true }, false],
    [{ country: 'SA', orders: 2, vip: true }, false],
    [{ country: 'SA', orders: 9, joined: '2025-06-01' }, false],
    [{ country: 'SA', orders: '9', vip: true }, false],
    [{}, false],
  ])('%j → %s', (attributes, expected) => {
    expect(matchesTargeting(rules, attributes as never)).toBe(expected);
  });
});
