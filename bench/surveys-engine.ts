/**
 * Survey engine timings (issue 11: validating a 200-question definition with logic ≤ 5 ms, a
 * simulation ≤ 1 ms). Measured on this file bundled and minified as a Lambda bundle is (tsx's
 * on-the-fly transform adds wrappers that triple the time), in-process, median and p95 after a
 * warm-up. `tsx bench/surveys-engine.ts` prints them alone; `npm run bench` includes them.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Question, SurveyDefinition } from '../lib/surveys/engine/definition.ts';
import { simulate } from '../lib/surveys/engine/simulate.ts';
import { validateDefinition } from '../lib/surveys/engine/validate.ts';

const label = (text: string) => ({ en: text, ar: text });
const options = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `o${i}`, label: label(`Option ${i}`) }));

/** 200 questions of every answering type; most have visibility, routes or option filters. */
export function largeDefinition(): SurveyDefinition {
  const questions: Question[] = [];
  for (let i = 0; i < 200; i++) {
    const id = `q${i}`;
    const base = { id, headline: label(`Question ${i}`), required: i % 4 === 0 };
    const kind = i % 5;
    const previous = questions[i - 1];
    const visibleIf =
      i > 0 && i % 2 === 0 && previous
        ? previous.type === 'nps'
          ? {
              any: [
                { question: previous.id, operator: 'atLeast' as const, value: i % 11 },
                { question: 'q0', operator: 'isAnswered' as const },
              ],
            }
          : { question: previous.id, operator: 'isAnswered' as const }
        : undefined;
    const routes =
      kind === 1 && i < 190
        ? [
            {
              when: {
                all: [
                  { question: id, operator: 'equals' as const, value: 'o1' },
                  { question: 'q0', operator: 'atLeast' as const, value: 7 },
                ],
              },
              goTo: `q${i + 4}`,
            },
            { when: { question: id, operator: 'equals' as const, value: 'o2' }, goTo: i % 3 === 0 ? 'early-exit' : `q${i + 2}` },
          ]
        : [];
    if (kind === 0) questions.push({ ...base, type: 'nps', visibleIf, routes } as Question);
    else if (kind === 1) questions.push({ ...base, type: 'singleChoice', options: options(5), visibleIf, routes } as Question);
    else if (kind === 2) questions.push({ ...base, type: 'multipleChoice', options: options(6), visibleIf } as Question);
    else if (kind === 3) {
      questions.push({
        ...base,
        type: 'singleChoice',
        options: options(6),
        optionFilter: { sourceQuestionId: `q${i - 1}`, mode: 'selected' },
        visibleIf,
      } as Question);
    } else questions.push({ ...base, type: 'openText', visibleIf } as Question);
  }
  return {
    languages: ['en', 'ar'],
    questions,
    endings: [
      { id: 'thanks', headline: label('Thanks') },
      { id: 'early-exit', headline: label('Bye') },
    ],
  };
}

/** Answers to every question of `largeDefinition()` that walk a long path through it. */
export function largeDefinitionAnswers(definition: SurveyDefinition = largeDefinition()): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const question of definition.questions) {
    if (question.type === 'nps') answers[question.id] = 8;
    else if (question.type === 'singleChoice') answers[question.id] = 'o0';
    else if (question.type === 'multipleChoice') answers[question.id] = ['o0', 'o3'];
    else if (question.type === 'openText') answers[question.id] = 'fine';
  }
  return answers;
}

function measure(run: () => unknown, iterations: number): { medianMs: number; p95Ms: number } {
  for (let i = 0; i < 20; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => Number((samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number).toFixed(3));
  return { medianMs: at(0.5), p95Ms: at(0.95) };
}

export function measureEngine(iterations: number) {
  const definition = largeDefinition();
  const answers = largeDefinitionAnswers(definition);
  return [
    {
      scenario: 'survey engine: validate 200 questions with logic (budget 5 ms)',
      ...measure(() => validateDefinition(definition), iterations),
    },
    { scenario: 'survey engine: simulate 200 questions (budget 1 ms)', ...measure(() => simulate(definition, answers), iterations) },
  ];
}

type EngineTiming = { scenario: string; medianMs: number; p95Ms: number };

async function surveyEngineTimings(iterations = 200): Promise<EngineTiming[]> {
  const root = resolve(import.meta.dirname, '..');
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const dir = mkdtempSync(join(root, 'node_modules/.cache/surveys-engine-'));
  const outfile = join(dir, 'engine.mjs');
  await build({
    entryPoints: [import.meta.filename],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    minify: true,
    outfile,
    logLevel: 'silent',
    external: ['esbuild'],
  });
  try {
    const bundled = (await import(pathToFileURL(outfile).href)) as { measureEngine: (iterations: number) => EngineTiming[] };
    return bundled.measureEngine(iterations);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The section `npm run bench` prints. */
export async function printSurveyEngineTimings(): Promise<void> {
  console.log('\n## Survey engine (bundled as a Lambda bundle, in-process)\n');
  console.log('| scenario | median ms | p95 ms |\n|---|---:|---:|');
  for (const timing of await surveyEngineTimings()) console.log(`| ${timing.scenario} | ${timing.medianMs} | ${timing.p95Ms} |`);
}

// Run directly (`tsx bench/surveys-engine.ts`): not when imported, nor as the bundle measured.
const runDirectly = import.meta.filename.endsWith('.ts') && import.meta.filename === process.argv[1];
if (runDirectly) console.table(await surveyEngineTimings());
