import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakingChanges } from '../../lib/surveys/engine/breaking-changes.ts';
import { OPERATORS, type Question, type QuestionCondition, type SurveyDefinition } from '../../lib/surveys/engine/definition.ts';
import { simulate } from '../../lib/surveys/engine/simulate.ts';
import { analyse } from '../../lib/surveys/engine/validate.ts';

// Small id pools make repeats, missing references and backward jumps common, so broken
// definitions are explored as much as sound ones.
const questionIds = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
const optionIds = ['x', 'y', 'z', 'w'];
const endingIds = ['end', 'alt', 'a'];
const label = { en: 'l' };

const value = fc.oneof(
  fc.constantFrom(...optionIds),
  fc.integer({ min: -1, max: 11 }),
  fc.boolean(),
  fc.subarray(optionIds, { minLength: 0 }),
  fc.constantFrom('2024-01-01', '2024-06-30', '2024-02-30', 'x', 'yz', '5', ''),
);

const condition: fc.Arbitrary<QuestionCondition> = fc.letrec<{ node: QuestionCondition }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record(
      { question: fc.constantFrom(...questionIds), operator: fc.constantFrom(...OPERATORS), value },
      { requiredKeys: ['question', 'operator'] },
    ) as fc.Arbitrary<QuestionCondition>,
    fc.record({ all: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ any: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
})).node;

const options = fc.array(fc.constantFrom(...optionIds), { minLength: 1, maxLength: 4 }).map((ids) => ids.map((id) => ({ id, label })));
const route = fc.record({ when: condition, goTo: fc.constantFrom(...questionIds, ...endingIds, 'nowhere') });
const optionFilter = fc.record({
  sourceQuestionId: fc.constantFrom(...questionIds),
  mode: fc.constantFrom('selected' as const, 'unselected' as const),
});

const question: fc.Arbitrary<Question> = fc
  .record(
    {
      id: fc.constantFrom(...questionIds),
      headline: fc.constant(label),
      required: fc.boolean(),
      visibleIf: condition,
      routes: fc.array(route, { maxLength: 3 }),
      kind: fc.constantFrom(
        'openText',
        'number',
        'singleChoice',
        'multipleChoice',
        'nps',
        'rating',
        'csat',
        'ces',
        'date',
        'matrix',
        'ranking',
        'consent',
        'statement',
      ),
      options,
      optionFilter,
      scale: fc.integer({ min: 3, max: 10 }),
    },
    { requiredKeys: ['id', 'headline', 'required', 'kind', 'options', 'scale'] },
  )
  .map(({ kind, options: choices, optionFilter: filter, scale, ...base }) => {
    switch (kind) {
      case 'openText':
        return { ...base, type: 'openText' } as Question;
      case 'number':
        return { ...base, type: 'openText', inputType: 'number' } as Question;
      case 'singleChoice':
      case 'multipleChoice':
      case 'ranking':
        return { ...base, type: kind, options: choices, ...(filter ? { optionFilter: filter } : {}) } as Question;
      case 'rating':
        return { ...base, type: 'rating', scale, style: 'number' } as Question;
      case 'matrix':
        return { ...base, type: 'matrix', rows: [{ id: 'r1', label }], columns: choices } as Question;
      default:
        return { ...base, type: kind } as Question;
    }
  });

const definition: fc.Arbitrary<SurveyDefinition> = fc.record({
  languages: fc.constant(['en'] as SurveyDefinition['languages']),
  questions: fc.array(question, { maxLength: 8 }),
  endings: fc.array(fc.constantFrom(...endingIds), { minLength: 1, maxLength: 3 }).map((ids) => ids.map((id) => ({ id, headline: label }))),
});

const answer = fc.oneof(
  fc.constantFrom(...optionIds),
  fc.subarray(optionIds, { minLength: 1 }),
  fc.integer({ min: -1, max: 11 }),
  fc.constantFrom('x', 'yz', '5', '2024-01-01', '2024-06-30', ''),
  fc.boolean(),
  fc.constant({ r1: 'x' }),
  fc.constant(null),
);
const answers = fc.dictionary(fc.constantFrom(...questionIds, 'ghost'), answer, { maxKeys: 8 });

describe('survey engine properties', () => {
  it('validate and simulate never throw on any definition and answers', () => {
    fc.assert(
      fc.property(definition, answers, (def, given) => {
        const { issues } = analyse(def);
        for (const issue of issues) expect(issue.path.startsWith('/')).toBe(true);
        const run = simulate(def, given);
        expect(new Set(run.path).size).toBe(run.path.length);
        for (const id of run.path) expect(run.skipped).not.toContain(id);
      }),
      { numRuns: 400 },
    );
  });

  it('every question a simulated path shows, and the ending it reaches, is reported reachable', () => {
    fc.assert(
      fc.property(definition, answers, (def, given) => {
        const { model, reach } = analyse(def);
        const run = simulate(def, given);
        for (const id of run.path) {
          const index = model.indexById.get(id) as number;
          expect(reach.questions[index]?.shown, `${id} was shown by simulation`).toBe(true);
        }
        if (run.ending !== null) expect(reach.endings.has(run.ending), `${run.ending} was reached`).toBe(true);
        const warned = new Set(
          analyse(def)
            .issues.filter((issue) => issue.code === 'unreachable_question')
            .map((issue) => issue.path),
        );
        for (const id of run.path) {
          const position = def.questions.findIndex((q) => q.id === id);
          expect(warned.has(`/questions/${position}`)).toBe(false);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('a definition compared with itself has no breaking changes', () => {
    fc.assert(
      fc.property(definition, (def) => {
        expect(breakingChanges(def, def)).toEqual([]);
      }),
    );
  });
});
