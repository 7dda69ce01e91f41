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

/**
 * Definitions an author would write: each condition reads an earlier question with an operator that
 * fits it and a value in range, and routes jump forward. These reach deep into the reasoning
 * (worlds carried across many questions) where random definitions mostly hit errors.
 */
const soundDefinition: fc.Arbitrary<SurveyDefinition> = fc
  .record({
    kinds: fc.array(fc.constantFrom('nps', 'singleChoice', 'multipleChoice', 'openText', 'number', 'date'), { minLength: 2, maxLength: 9 }),
    picks: fc.array(fc.nat(1000), { minLength: 80, maxLength: 80 }),
  })
  .map(({ kinds, picks }) => {
    let cursor = 0;
    const pick = (n: number) => (picks[cursor++ % picks.length] as number) % n;
    const one = <T>(list: readonly T[]): T => list[pick(list.length)] as T;
    const ids = kinds.map((_, i) => `q${i}`);
    const leafAbout = (index: number): QuestionCondition => {
      const id = ids[index] as string;
      const options = ['x', 'y', 'z'];
      switch (kinds[index]) {
        case 'nps':
          return {
            question: id,
            operator: one(['equals', 'greaterThan', 'lessThan', 'atLeast', 'atMost', 'notEquals'] as const),
            value: pick(11),
          };
        case 'singleChoice':
          return pick(2)
            ? { question: id, operator: pick(2) ? 'equals' : 'notEquals', value: options[pick(3)] }
            : { question: id, operator: 'includesAny', value: [options[pick(3)] as string] };
        case 'multipleChoice':
          return {
            question: id,
            operator: one(['includesAny', 'includesAll', 'excludesAll'] as const),
            value: options.slice(0, 1 + pick(3)),
          };
        case 'number':
          return { question: id, operator: one(['greaterThan', 'lessThan', 'equals'] as const), value: pick(20) - 5 };
        case 'date':
          return { question: id, operator: pick(2) ? 'before' : 'after', value: `2024-0${1 + pick(9)}-15` };
        default:
          return pick(3)
            ? { question: id, operator: pick(2) ? 'contains' : 'notContains', value: ['a', 'b', 'ab'][pick(3)] as string }
            : { question: id, operator: 'isAnswered' };
      }
    };
    const conditionUpTo = (last: number): QuestionCondition => {
      const leaf = () => leafAbout(pick(last + 1));
      const shape = pick(3);
      if (shape === 0) return leaf();
      return shape === 1 ? { all: [leaf(), leaf()] } : { any: [leaf(), { all: [leaf(), leaf()] }] };
    };
    const questions = kinds.map((kind, i): Question => {
      const base = {
        id: ids[i] as string,
        headline: label,
        required: pick(2) === 0,
        ...(i > 0 && pick(2) === 0 ? { visibleIf: conditionUpTo(i - 1) } : {}),
        routes:
          i < kinds.length - 1 && pick(2) === 0
            ? [{ when: conditionUpTo(i), goTo: pick(3) === 0 ? 'alt' : (ids[i + 1 + pick(kinds.length - i - 1)] as string) }]
            : [],
      };
      const options = [
        { id: 'x', label },
        { id: 'y', label },
        { id: 'z', label },
      ];
      const earlierChoice = ids.findIndex((_, j) => j < i && (kinds[j] === 'singleChoice' || kinds[j] === 'multipleChoice'));
      const filter =
        earlierChoice >= 0 && pick(2) === 0
          ? {
              optionFilter: {
                sourceQuestionId: ids[earlierChoice] as string,
                mode: pick(2) ? ('selected' as const) : ('unselected' as const),
              },
            }
          : {};
      switch (kind) {
        case 'nps':
          return { ...base, type: 'nps' };
        case 'singleChoice':
          return { ...base, type: 'singleChoice', options, ...filter };
        case 'multipleChoice':
          return { ...base, type: 'multipleChoice', options, ...filter };
        case 'number':
          return { ...base, type: 'openText', inputType: 'number' };
        case 'date':
          return { ...base, type: 'date' };
        default:
          return { ...base, type: 'openText' };
      }
    });
    return {
      languages: ['en'],
      questions,
      endings: [
        { id: 'end', headline: label },
        { id: 'alt', headline: label },
      ],
    } as SurveyDefinition;
  });

const soundAnswers = fc.dictionary(
  fc.constantFrom('q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8'),
  fc.oneof(
    fc.integer({ min: 0, max: 10 }),
    fc.constantFrom('x', 'y', 'z', 'a', 'ab', 'b', '3', '-2', '12', '2024-03-01', '2024-09-30'),
    fc.subarray(['x', 'y', 'z'], { minLength: 1 }),
  ),
);

// Thousands of generated definitions each: seconds of CPU on a loaded 2-core machine, far past vitest's 5 s default.
const PROPERTY_TIMEOUT_MS = 60_000;

describe('survey engine properties', () => {
  it(
    'on definitions without errors, every question and ending a simulated path reaches is reported reachable',
    () => {
      fc.assert(
        fc.property(soundDefinition, soundAnswers, (def, given) => {
          const { model, reach, issues } = analyse(def);
          expect(issues.filter((issue) => issue.severity === 'error')).toEqual([]);
          const run = simulate(def, given);
          for (const id of run.path)
            expect(reach.questions[model.indexById.get(id) as number]?.shown, `${id} was shown by simulation`).toBe(true);
          if (run.ending !== null) expect(reach.endings.has(run.ending)).toBe(true);
        }),
        { numRuns: 1500 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'validate and simulate never throw on any definition and answers',
    () => {
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
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'every question a simulated path shows, and the ending it reaches, is reported reachable',
    () => {
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
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('a definition compared with itself has no breaking changes', () => {
    fc.assert(
      fc.property(definition, (def) => {
        expect(breakingChanges(def, def)).toEqual([]);
      }),
    );
  });
});
