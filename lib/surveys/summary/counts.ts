/**
 * The counters a response adds to its day bucket ("contribution"), as a flat map of counter name →
 * count, so buckets and deltas add and subtract key by key. Counter names:
 *   r|started, r|finished, r|s|<bin>           responses, and secondsToFinish by histogram bin
 *   q|<id>|shown, q|<id>|answered, q|<id>|dropped  per question on the response's path
 *   q|<id>|o|<optionId>                         choice questions: answers per option
 *   q|<id>|v|<value>                            numeric questions: answers per value
 * Ids are [a-z0-9_-] (lib/surveys/engine/definition.ts) and values numbers, so `|` never appears in one.
 * No answer text and no respondent ever reaches a counter.
 */
import type { Catalog } from './catalog.ts';
import { histogramBin } from './histogram.ts';

export type Counts = Record<string, number>;

/** The parts of a stored response (contract §1) that a summary counts. */
export interface CountedResponse {
  status: 'partial' | 'finished';
  answers: Record<string, unknown>;
  path: string[];
  secondsToFinish?: number;
}

function isAnswered(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function add(counts: Counts, name: string, by = 1): void {
  counts[name] = (counts[name] ?? 0) + by;
}

export function contributionOf(response: CountedResponse, catalog: Catalog): Counts {
  const counts: Counts = { 'r|started': 1 };
  if (response.status === 'finished') {
    add(counts, 'r|finished');
    if (typeof response.secondsToFinish === 'number' && response.secondsToFinish >= 0) {
      add(counts, `r|s|${histogramBin(response.secondsToFinish)}`);
    }
  }
  const shown = [...new Set(response.path)].filter((id) => catalog[id]);
  for (const id of shown) {
    const question = catalog[id];
    if (!question) continue;
    add(counts, `q|${id}|shown`);
    const answer = response.answers[id];
    if (!isAnswered(answer)) continue;
    add(counts, `q|${id}|answered`);
    if (question.numeric && typeof answer === 'number' && Number.isFinite(answer)) add(counts, `q|${id}|v|${answer}`);
    if (question.numeric && typeof answer === 'string' && answer.trim() !== '' && Number.isFinite(Number(answer))) {
      add(counts, `q|${id}|v|${Number(answer)}`);
    }
    if (question.options) {
      for (const optionId of new Set(Array.isArray(answer) ? answer : [answer])) {
        if (typeof optionId === 'string' && question.options.includes(optionId)) add(counts, `q|${id}|o|${optionId}`);
      }
    }
  }
  // Where a respondent stopped: the last question shown to a response that did not finish.
  const last = shown.at(-1);
  if (response.status === 'partial' && last !== undefined) add(counts, `q|${last}|dropped`);
  return counts;
}

/** `into += sign × counts`, dropping counters that reach zero so buckets stay small. */
export function addCounts(into: Counts, counts: Counts, sign: 1 | -1 = 1): Counts {
  for (const [name, count] of Object.entries(counts)) {
    const next = (into[name] ?? 0) + sign * count;
    if (next === 0) delete into[name];
    else into[name] = next;
  }
  return into;
}
