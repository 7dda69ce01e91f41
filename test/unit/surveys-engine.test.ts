import { describe, expect, it } from 'vitest';
import { breakingChanges } from '../../lib/surveys/engine/breaking-changes.ts';
import { type Question, type SurveyDefinition, surveyDefinition } from '../../lib/surveys/engine/definition.ts';
import { simulate } from '../../lib/surveys/engine/simulate.ts';
import { type AudienceAttribute, validateTargeting } from '../../lib/surveys/engine/targeting.ts';
import { hasErrors, validateDefinition } from '../../lib/surveys/engine/validate.ts';

const t = (en: string) => ({ en });
const options = (...ids: string[]) => ids.map((id) => ({ id, label: t(id.toUpperCase()) }));

function single(id: string, ids: string[], extra: Partial<Question> = {}): Question {
  return { id, type: 'singleChoice', headline: t(id), required: true, options: options(...ids), ...extra } as Question;
}
function multi(id: string, ids: string[], extra: Partial<Question> = {}): Question {
  return { id, type: 'multipleChoice', headline: t(id), required: false, options: options(...ids), ...extra } as Question;
}
function nps(id: string, extra: Partial<Question> = {}): Question {
  return { id, type: 'nps', headline: t(id), required: true, ...extra } as Question;
}
function text(id: string, extra: Partial<Question> = {}): Question {
  return { id, type: 'openText', headline: t(id), required: false, ...extra } as Question;
}
function definition(questions: Question[], endings = ['done']): SurveyDefinition {
  return { languages: ['en'], questions, endings: endings.map((id) => ({ id, headline: t(id) })) };
}
const codes = (def: SurveyDefinition) => validateDefinition(def).map((issue) => `${issue.severity}:${issue.code}@${issue.path}`);

describe('survey definition schema', () => {
  it('accepts a definition of every question type', () => {
    const def = {
      languages: ['en', 'ar'],
      questions: [
        { id: 'q1', type: 'openText', headline: { en: 'a', ar: 'ب' }, required: false, inputType: 'email', maxLength: 100 },
        { id: 'q2', type: 'rating', headline: { en: 'a', ar: 'ب' }, required: true, scale: 5, style: 'star' },
        { id: 'q3', type: 'matrix', headline: { en: 'a', ar: 'ب' }, required: false, rows: options('r1'), columns: options('c1', 'c2') },
        { id: 'q4', type: 'statement', headline: { en: 'a', ar: 'ب' }, required: false },
      ],
      endings: [{ id: 'end', headline: { en: 'a', ar: 'ب' } }],
    };
    expect(surveyDefinition.safeParse(def).success).toBe(true);
  });

  it('rejects more than 200 questions and conditions deeper than 5 levels', () => {
    const many = definition(Array.from({ length: 201 }, (_, i) => text(`q${i}`)));
    expect(surveyDefinition.safeParse(many).success).toBe(false);
    let condition: unknown = { question: 'q0', operator: 'isAnswered' };
    for (let level = 0; level < 6; level++) condition = { all: [condition] };
    const deep = definition([text('q0'), text('q1', { visibleIf: condition as never })]);
    const result = surveyDefinition.safeParse(deep);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('at most 5');
    let five: unknown = { question: 'q0', operator: 'isAnswered' };
    for (let level = 0; level < 5; level++) five = { any: [five] };
    expect(surveyDefinition.safeParse(definition([text('q0'), text('q1', { visibleIf: five as never })])).success).toBe(true);
  });

  it('rejects a choice question with one option and an id with capitals', () => {
    expect(surveyDefinition.safeParse(definition([single('q1', ['a'])])).success).toBe(false);
    expect(surveyDefinition.safeParse(definition([text('Q1')])).success).toBe(false);
  });
});

describe('validateDefinition errors', () => {
  it('has no issues for a sound definition with routing', () => {
    const def = definition(
      [
        single('plan', ['free', 'pro'], { routes: [{ when: { question: 'plan', operator: 'equals', value: 'free' }, goTo: 'why-free' }] }),
        nps('score'),
        text('why-free', { visibleIf: { question: 'plan', operator: 'equals', value: 'free' } }),
      ],
      ['done'],
    );
    expect(codes(def)).toEqual([]);
  });

  it('reports duplicate ids of questions, options and endings', () => {
    const def = definition([text('a'), single('b', ['x', 'x']), text('a')], ['b', 'e', 'e']);
    expect(codes(def)).toEqual(
      expect.arrayContaining([
        'error:duplicate_id@/questions/2/id',
        'error:duplicate_id@/questions/1/options/1/id',
        'error:duplicate_id@/endings/0/id',
        'error:duplicate_id@/endings/2/id',
      ]),
    );
  });

  it('reports references to missing questions, options and endings, and later questions', () => {
    const def = definition([
      single('a', ['x', 'y'], {
        visibleIf: { question: 'b', operator: 'isAnswered' },
        routes: [
          { when: { question: 'a', operator: 'equals', value: 'z' }, goTo: 'nowhere' },
          { when: { question: 'ghost', operator: 'isAnswered' }, goTo: 'done' },
        ],
      }),
      text('b'),
    ]);
    expect(codes(def)).toEqual(
      expect.arrayContaining([
        'error:reference_not_earlier@/questions/0/visibleIf/question',
        'error:unknown_option@/questions/0/routes/0/when/value',
        'error:unknown_target@/questions/0/routes/0/goTo',
        'error:unknown_question@/questions/0/routes/1/when/question',
      ]),
    );
  });

  it('reports operators that do not fit, out-of-range values, bad dates and isSkipped on a required question', () => {
    const def = definition([
      nps('n'),
      { id: 'd', type: 'date', headline: t('d'), required: false },
      { id: 'm', type: 'matrix', headline: t('m'), required: false, rows: options('r'), columns: options('c1', 'c2') },
      text('x', {
        visibleIf: {
          any: [
            { question: 'n', operator: 'greaterThan', value: 11 },
            { question: 'd', operator: 'before', value: '2024-02-30' },
            { question: 'm', operator: 'equals', value: 'r' },
            { question: 'n', operator: 'contains', value: '1' },
            { question: 'n', operator: 'isSkipped' },
          ],
        },
      }),
    ]);
    expect(codes(def)).toEqual(
      expect.arrayContaining([
        'error:value_out_of_range@/questions/3/visibleIf/any/0/value',
        'error:invalid_value@/questions/3/visibleIf/any/1/value',
        'error:operator_type_mismatch@/questions/3/visibleIf/any/2/operator',
        'error:operator_type_mismatch@/questions/3/visibleIf/any/3/operator',
        'error:skipped_on_required@/questions/3/visibleIf/any/4/operator',
      ]),
    );
  });

  it('reports a backward jump and a jump to itself', () => {
    const def = definition([
      text('a'),
      text('b', {
        routes: [
          { when: { question: 'b', operator: 'isAnswered' }, goTo: 'a' },
          { when: { question: 'b', operator: 'isSkipped' }, goTo: 'b' },
        ],
      }),
    ]);
    expect(codes(def)).toEqual(
      expect.arrayContaining(['error:backward_jump@/questions/1/routes/0/goTo', 'error:backward_jump@/questions/1/routes/1/goTo']),
    );
  });

  it('reports a shown string missing a language of the survey', () => {
    const def: SurveyDefinition = { ...definition([single('a', ['x', 'y'])]), languages: ['en', 'ar'] };
    const found = codes(def);
    expect(found).toContain('error:missing_translation@/questions/0/headline');
    expect(found).toContain('error:missing_translation@/questions/0/options/1/label');
    expect(found).toContain('error:missing_translation@/endings/0/headline');
  });

  it('reports an option filter on a later or non-choice question, or with foreign option ids', () => {
    const def = definition([
      text('t'),
      multi('m', ['a', 'b']),
      multi('f1', ['a', 'b'], { optionFilter: { sourceQuestionId: 't', mode: 'selected' } }),
      multi('f2', ['a', 'c'], { optionFilter: { sourceQuestionId: 'm', mode: 'selected' } }),
      multi('f3', ['a', 'b'], { optionFilter: { sourceQuestionId: 'f4', mode: 'selected' } }),
      multi('f4', ['a', 'b']),
    ]);
    expect(codes(def)).toEqual(
      expect.arrayContaining([
        'error:invalid_option_filter@/questions/2/optionFilter/sourceQuestionId',
        'error:unknown_option@/questions/3/optionFilter',
        'error:reference_not_earlier@/questions/4/optionFilter/sourceQuestionId',
      ]),
    );
  });

  it('reports an empty survey as not publishable', () => {
    expect(hasErrors(validateDefinition(definition([])))).toBe(true);
  });
});

describe('validateDefinition warnings', () => {
  it('finds a question every route jumps over and an ending no path reaches', () => {
    const def = definition(
      [
        single('a', ['x', 'y'], {
          routes: [
            { when: { question: 'a', operator: 'equals', value: 'x' }, goTo: 'c' },
            { when: { question: 'a', operator: 'equals', value: 'y' }, goTo: 'c' },
          ],
        }),
        text('b'),
        text('c'),
      ],
      ['done', 'never'],
    );
    expect(codes(def)).toEqual(['warning:unreachable_question@/questions/1', 'warning:unreachable_ending@/endings/1']);
  });

  it('finds a question whose visibility contradicts the route that leads to it', () => {
    const def = definition([
      nps('score', { routes: [{ when: { question: 'score', operator: 'atLeast', value: 9 }, goTo: 'promoter' }] }),
      text('detractor', { visibleIf: { question: 'score', operator: 'lessThan', value: 7 } }),
      text('promoter', { visibleIf: { question: 'score', operator: 'lessThan', value: 5 }, routes: [] }),
      text('last'),
    ]);
    // promoter is reached only by scores 0–8 falling through or 9–10 jumping; visible only below 5,
    // which falling-through scores allow, so it stays reachable.
    expect(codes(def)).toEqual([]);
    const blocked = definition([
      nps('score', { routes: [{ when: { question: 'score', operator: 'lessThan', value: 9 }, goTo: 'done' }] }),
      text('low', { visibleIf: { question: 'score', operator: 'lessThan', value: 5 } }),
    ]);
    expect(codes(blocked)).toEqual(['warning:unreachable_question@/questions/1']);
  });

  it('finds conditions that can never be true', () => {
    const def = definition([
      single('plan', ['a', 'b'], { required: false }),
      nps('n', { required: false }),
      text('t', {
        visibleIf: {
          any: [
            {
              all: [
                { question: 'plan', operator: 'equals', value: 'a' },
                { question: 'plan', operator: 'equals', value: 'b' },
              ],
            },
            {
              all: [
                { question: 'n', operator: 'greaterThan', value: 8 },
                { question: 'n', operator: 'lessThan', value: 3 },
              ],
            },
          ],
        },
      }),
    ]);
    expect(codes(def)).toEqual(['warning:unreachable_question@/questions/2', 'warning:condition_never_true@/questions/2/visibleIf']);
  });

  it('names the contradicting group when the rest of the condition can hold', () => {
    const def = definition([
      nps('n', { required: false }),
      text('t', {
        visibleIf: {
          any: [
            { question: 'n', operator: 'equals', value: 10 },
            {
              all: [
                { question: 'n', operator: 'greaterThan', value: 8 },
                { question: 'n', operator: 'lessThan', value: 3 },
              ],
            },
          ],
        },
      }),
    ]);
    expect(codes(def)).toEqual(['warning:condition_never_true@/questions/1/visibleIf/any/1']);
  });

  it('finds text and multiple-choice contradictions', () => {
    const def = definition([
      text('t'),
      multi('m', ['a', 'b', 'c']),
      text('x', {
        required: false,
        routes: [
          {
            when: {
              all: [
                { question: 't', operator: 'contains', value: 'refund' },
                { question: 't', operator: 'notContains', value: 'fun' },
              ],
            },
            goTo: 'done',
          },
          {
            when: {
              all: [
                { question: 'm', operator: 'includesAll', value: ['a', 'b'] },
                { question: 'm', operator: 'excludesAll', value: ['b'] },
              ],
            },
            goTo: 'done',
          },
          {
            when: {
              all: [
                { question: 't', operator: 'equals', value: 'Yes' },
                { question: 't', operator: 'equals', value: 'yes' },
              ],
            },
            goTo: 'done',
          },
        ],
      }),
    ]);
    expect(codes(def)).toEqual([
      'warning:condition_never_true@/questions/2/routes/0/when',
      'warning:condition_never_true@/questions/2/routes/1/when',
    ]);
  });

  it('warns when an option filter can leave a required question with no options', () => {
    const def = definition([
      multi('tried', ['a', 'b', 'c']),
      single('best', ['a', 'b', 'c'], { required: true, optionFilter: { sourceQuestionId: 'tried', mode: 'selected' } }),
    ]);
    expect(codes(def)).toEqual(['warning:option_filter_may_empty@/questions/1/optionFilter']);
    const safe = definition([
      multi('tried', ['a', 'b', 'c'], { required: true }),
      single('best', ['a', 'b', 'c'], { required: true, optionFilter: { sourceQuestionId: 'tried', mode: 'selected' } }),
    ]);
    expect(codes(safe)).toEqual([]);
    const unselected = definition([
      multi('tried', ['a', 'b', 'c'], { required: true }),
      single('other', ['a', 'b'], { required: true, optionFilter: { sourceQuestionId: 'tried', mode: 'unselected' } }),
    ]);
    expect(codes(unselected)).toEqual(['warning:option_filter_may_empty@/questions/1/optionFilter']);
  });

  it('warns about a required question that is only sometimes visible', () => {
    const def = definition([
      single('a', ['x', 'y']),
      text('b', { required: true, visibleIf: { question: 'a', operator: 'equals', value: 'x' } }),
    ]);
    expect(codes(def)).toEqual(['warning:required_sometimes_hidden@/questions/1/visibleIf']);
  });

  it('validates a 200-question definition with logic', () => {
    const questions: Question[] = [];
    for (let i = 0; i < 200; i++) {
      const previous = `q${i - 1}`;
      questions.push(
        i === 0
          ? nps('q0')
          : nps(`q${i}`, {
              required: i % 3 === 0,
              visibleIf: {
                any: [
                  { question: previous, operator: 'atLeast', value: i % 10 },
                  { question: 'q0', operator: 'lessThan', value: 5 },
                ],
              },
              routes: i < 195 ? [{ when: { question: `q${i}`, operator: 'equals', value: 10 }, goTo: `q${i + 3}` }] : [],
            }),
      );
    }
    const issues = validateDefinition(definition(questions));
    expect(hasErrors(issues)).toBe(false);
  });
});

describe('simulate', () => {
  const def = definition(
    [
      single('plan', ['free', 'pro', 'team'], {
        routes: [{ when: { question: 'plan', operator: 'equals', value: 'team' }, goTo: 'team-end' }],
      }),
      multi('used', ['chat', 'mail', 'api']),
      single('favourite', ['chat', 'mail', 'api'], { required: true, optionFilter: { sourceQuestionId: 'used', mode: 'selected' } }),
      nps('score', { visibleIf: { question: 'plan', operator: 'equals', value: 'pro' } }),
      text('why', { required: false }),
    ],
    ['done', 'team-end'],
  );

  it('walks the path, filters options and reaches the first ending', () => {
    const run = simulate(def, { plan: 'free', used: ['chat', 'api'], favourite: 'api' });
    expect(run).toEqual({
      path: ['plan', 'used', 'favourite', 'why'],
      skipped: ['score'],
      options: { plan: ['free', 'pro', 'team'], used: ['chat', 'mail', 'api'], favourite: ['chat', 'api'] },
      ending: 'done',
      problems: [],
    });
  });

  it('follows a route to an ending and reports answers that were never shown', () => {
    const run = simulate(def, { plan: 'team', score: 9 });
    expect(run.path).toEqual(['plan']);
    expect(run.skipped).toEqual(['used', 'favourite', 'score', 'why']);
    expect(run.ending).toBe('team-end');
    expect(run.problems).toEqual([{ questionId: 'score', code: 'answer_not_shown', message: expect.any(String) }]);
  });

  it('skips a question whose filter leaves no options', () => {
    const run = simulate(def, { plan: 'pro', score: 3 });
    expect(run.path).toEqual(['plan', 'used', 'score', 'why']);
    expect(run.skipped).toEqual(['favourite']);
  });

  it('reports an option not offered, a wrong type, an unknown question, and stops at a required question left unanswered', () => {
    const run = simulate(def, { plan: 'pro', used: ['chat'], favourite: 'mail', ghost: 1 });
    expect(run.path).toEqual(['plan', 'used', 'favourite']);
    expect(run.ending).toBeNull();
    expect(run.problems.map((problem) => `${problem.questionId}:${problem.code}`)).toEqual([
      'ghost:unknown_question',
      'favourite:option_not_offered',
      'favourite:required_unanswered',
    ]);
    const wrongType = simulate(def, { plan: 3 });
    expect(wrongType.problems.map((problem) => problem.code)).toEqual(['invalid_answer', 'required_unanswered']);
  });

  it('reports missing translations for the language asked', () => {
    const run = simulate(def, { plan: 'team' }, 'ar');
    expect(run.problems).toEqual([{ questionId: 'plan', code: 'missing_translation', message: expect.any(String) }]);
  });
});

describe('breakingChanges', () => {
  it('lists removed and retyped questions, removed and re-ided options and scale changes', () => {
    const before = definition([
      single('a', ['x', 'y', 'z']),
      nps('b'),
      { id: 'c', type: 'rating', headline: t('c'), required: true, scale: 5, style: 'star' },
      text('d'),
    ]);
    const after = definition([
      single('a', ['x', 'w'], {
        options: [
          { id: 'x', label: t('X') },
          { id: 'y2', label: t('Y') },
        ],
      } as Partial<Question>),
      text('b'),
      { id: 'c', type: 'rating', headline: t('c changed'), required: true, scale: 10, style: 'star' },
      text('e'),
    ]);
    expect(breakingChanges(before, after)).toEqual([
      { kind: 'option_reided', questionId: 'a', optionId: 'y', detail: expect.any(String) },
      { kind: 'option_removed', questionId: 'a', optionId: 'z', detail: expect.any(String) },
      { kind: 'type_changed', questionId: 'b', detail: expect.any(String) },
      { kind: 'scale_changed', questionId: 'c', detail: expect.any(String) },
      { kind: 'question_removed', questionId: 'd', detail: expect.any(String) },
    ]);
  });

  it('finds nothing breaking in new questions and reworded text', () => {
    const before = definition([single('a', ['x', 'y'])]);
    const after = definition([single('a', ['x', 'y'], { headline: t('New wording') }), text('new')]);
    expect(breakingChanges(before, after)).toEqual([]);
  });
});

describe('validateTargeting', () => {
  const catalog: AudienceAttribute[] = [
    { key: 'plan', type: 'string', values: ['free', 'pro'] },
    { key: 'country', type: 'string' },
    { key: 'seats', type: 'number' },
    { key: 'signedUpAt', type: 'date' },
    { key: 'beta', type: 'boolean' },
  ];

  it('accepts a sound rule', () => {
    const rules = {
      filters: {
        all: [
          { attribute: 'plan', operator: 'equals', value: 'pro' },
          { attribute: 'seats', operator: 'atLeast', value: 5 },
          { attribute: 'signedUpAt', operator: 'after', value: '2024-01-01' },
          { attribute: 'beta', operator: 'equals', value: true },
          { attribute: 'country', operator: 'contains', value: 'sa' },
        ],
      },
    } as const;
    expect(validateTargeting(rules as never, catalog)).toEqual([]);
  });

  it('lists every problem: unknown attribute, operator mismatch, malformed value', () => {
    const rules = {
      filters: {
        all: [
          { attribute: 'age', operator: 'equals', value: 3 },
          { attribute: 'beta', operator: 'greaterThan', value: 1 },
          { attribute: 'plan', operator: 'equals', value: 'gold' },
          { attribute: 'signedUpAt', operator: 'before', value: 'yesterday' },
        ],
      },
    };
    expect(validateTargeting(rules as never, catalog).map((problem) => problem.path)).toEqual([
      '/filters/all/0/attribute',
      '/filters/all/1/operator',
      '/filters/all/2/value',
      '/filters/all/3/value',
    ]);
  });

  it('rejects contradictions, depth beyond 5 and more than 50 conditions', () => {
    const contradiction = {
      filters: {
        all: [
          { attribute: 'seats', operator: 'greaterThan', value: 8 },
          { attribute: 'seats', operator: 'lessThan', value: 3 },
        ],
      },
    };
    expect(validateTargeting(contradiction as never, catalog)).toEqual([
      { path: '/filters', message: expect.stringContaining('target no one') },
    ]);
    let deep: unknown = { attribute: 'beta', operator: 'isAnswered' };
    for (let level = 0; level < 6; level++) deep = { any: [deep] };
    expect(validateTargeting({ filters: deep } as never, catalog)[0]?.message).toContain('at most 5');
    const many = { filters: { any: Array.from({ length: 51 }, () => ({ attribute: 'beta', operator: 'isAnswered' })) } };
    expect(validateTargeting(many as never, catalog)[0]?.message).toContain('at most 50');
  });
});
