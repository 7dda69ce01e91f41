/**
 * Similar ideas (GET /ideas/similar, POST /ideas `possibleDuplicates`), measured in one run:
 *   1. Relevance on the labelled paraphrases (test/fixtures/idea-paraphrases.json): recall@3 of the
 *      index beside a plain term match (lower-cased words, no folding, stemming or weights), alone and
 *      among 10,000 generated distractors made of the same vocabulary; and the duplicate threshold's
 *      calibration (how many right answers and how many wrong ones score above it).
 *   2. In process at 10,000 ideas: p50/p95 of one lookup, the index beside the plain term match.
 *   3. Against the sandbox at 10,000 ideas: the first lookup of the workspace (it reads every idea:
 *      what a design without the index cache pays on every lookup), then warm lookups' calls, depth,
 *      p50 and p95.
 * `BENCH_ONLY=similar npm run bench` runs only this.
 */

import { DUPLICATE_MIN_SCORE, SimilarityIndex } from '../lib/ideas/similar/index.ts';
import { writeMany } from '../lib/platform/data/batch.ts';
import type { Sandbox } from '../local/sandbox.ts';
import { benchWorkspace, seededIdeaItem, send } from './harness.ts';
import { type IdeaRanker, type LabelledQuery, PlainTermMatch, paraphraseIdeas, recallAt3 } from './ideas-similar-relevance.ts';

const IDEAS = 10_000;

/** A deterministic generator (mulberry32), so every run draws the same distractors. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Distractors: 3-8 words drawn from the labelled ideas' own vocabulary, English or Arabic. */
function distractors(pairs: readonly LabelledQuery[], count: number): Array<{ id: string; title: string; description: string }> {
  const next = random(39);
  const vocabulary = (language: RegExp) => [
    ...new Set(
      pairs
        .flatMap((pair) => [pair.idea.title, pair.idea.titleAr ?? '', pair.idea.description ?? ''])
        .flatMap((text) => text.match(language) ?? []),
    ),
  ];
  const english = vocabulary(/[a-z]{3,}/gi);
  const arabic = vocabulary(/[\u0621-\u064A]{3,}/g);
  const pick = (words: string[], n: number) => Array.from({ length: n }, () => words[Math.floor(next() * words.length)]!).join(' ');
  return Array.from({ length: count }, (_, i) => {
    const words = next() < 0.5 ? english : arabic;
    return {
      id: `filler-${String(i).padStart(5, '0')}`,
      title: pick(words, 3 + Math.floor(next() * 4)),
      description: pick(words, 2 + Math.floor(next() * 3)),
    };
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function timings(ranker: IdeaRanker, pairs: readonly LabelledQuery[], rounds = 5): { p50: number; p95: number } {
  for (const pair of pairs) ranker.similarTo(pair.query, { limit: 5 }); // warm: compiled code, cached norms
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++)
    for (const pair of pairs) {
      const started = performance.now();
      ranker.similarTo(pair.query, { limit: 5 });
      samples.push(performance.now() - started);
    }
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

const ms = (value: number) => value.toFixed(2);

/** The seeding's BatchWriteItem, tried again when DynamoDB Local, starved of CPU, outlives the client's 3 s timeout. */
async function writeWithPatience(items: Array<Record<string, unknown>>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeMany(items);
    } catch (error) {
      if (attempt >= 5 || (error as Error).name !== 'TimeoutError') throw error;
    }
  }
}

export async function benchSimilarIdeas(sandbox: Sandbox): Promise<void> {
  console.log('\n## Similar ideas (GET /ideas/similar, POST /ideas possibleDuplicates)\n');
  const { index: labelled, pairs } = paraphraseIdeas();
  const plainLabelled = new PlainTermMatch();
  for (const pair of pairs) plainLabelled.put({ id: pair.ideaId, ...pair.idea });

  const fillers = distractors(pairs, IDEAS - pairs.length);
  const large = new SimilarityIndex();
  const plainLarge = new PlainTermMatch();
  for (const idea of fillers) {
    large.put(idea);
    plainLarge.put(idea);
  }
  paraphraseIdeas(large);
  for (const pair of pairs) plainLarge.put({ id: pair.ideaId, ...pair.idea });

  console.log(
    `Labelled paraphrase pairs: ${pairs.length} (${['en', 'ar', 'mixed'].map((l) => `${l} ${pairs.filter((p) => p.language === l).length}`).join(', ')})\n`,
  );
  console.log('| recall@3 | index (stemmed, folded, TF-IDF cosine) | plain term match |\n|---|---:|---:|');
  for (const language of ['en', 'ar', 'mixed'] as const) {
    const subset = pairs.filter((pair) => pair.language === language);
    console.log(
      `| ${language}, labelled ideas only | ${recallAt3(labelled, subset).toFixed(2)} | ${recallAt3(plainLabelled, subset).toFixed(2)} |`,
    );
  }
  console.log(`| all, labelled ideas only | ${recallAt3(labelled, pairs).toFixed(2)} | ${recallAt3(plainLabelled, pairs).toFixed(2)} |`);
  console.log(
    `| all, among ${IDEAS.toLocaleString('en')} ideas | ${recallAt3(large, pairs).toFixed(2)} | ${recallAt3(plainLarge, pairs).toFixed(2)} |`,
  );

  const right: number[] = [];
  const wrong: number[] = [];
  for (const pair of pairs)
    for (const match of labelled.similarTo(pair.query, { limit: 5 })) (match.id === pair.ideaId ? right : wrong).push(match.score);
  const above = (scores: number[]) => scores.filter((score) => score > DUPLICATE_MIN_SCORE).length;
  console.log(
    `\nDuplicate threshold ${DUPLICATE_MIN_SCORE}: ${above(right)}/${pairs.length} paraphrases score above it; ` +
      `${above(wrong)}/${wrong.length} other ideas in their top five do.`,
  );

  const index = timings(large, pairs);
  // Timed on a shared machine: read the ratio, not the milliseconds.
  const plain = timings(plainLarge, pairs);
  console.log(
    `\nIn process, ${IDEAS.toLocaleString('en')} ideas, one lookup: index p50 ${ms(index.p50)} ms, p95 ${ms(index.p95)} ms; ` +
      `plain term match p50 ${ms(plain.p50)} ms, p95 ${ms(plain.p95)} ms (${(plain.p95 / index.p95).toFixed(1)}× the index's p95)`,
  );

  const context = await benchWorkspace(sandbox, 'similar');
  const slug = context.host.split('.')[0]!;
  const base = Date.now() - 3_600_000;
  const items = [...fillers, ...pairs.map((pair) => ({ ...pair.idea, id: pair.ideaId }))].map((idea, i) =>
    seededIdeaItem(slug, base + i, idea),
  );
  // One BatchWriteItem at a time: DynamoDB Local on a loaded machine times out calls sent together.
  for (let i = 0; i < items.length; i += 25) await writeWithPatience(items.slice(i, i + 25));
  const lookup = async (q: string) => {
    const started = performance.now();
    const res = await send(context, 'GET', `/ideas/similar?q=${encodeURIComponent(q)}`);
    if (res.status !== 200) throw new Error(`GET /ideas/similar answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    return {
      ms: performance.now() - started,
      calls: Number(res.headers.get('x-sandbox-dynamodb-calls')),
      depth: Number(res.headers.get('x-sandbox-dynamodb-depth')),
    };
  };
  const first = await lookup(pairs[0]!.query);
  const warm = [];
  for (let round = 0; round < 2; round++) for (const pair of pairs) warm.push(await lookup(pair.query));
  const warmMs = warm.map((sample) => sample.ms);
  console.log(`\nSandbox, ${IDEAS.toLocaleString('en')} ideas in the workspace:\n`);
  console.log('| GET /ideas/similar | DynamoDB calls | depth | p50 ms | p95 ms |\n|---|---:|---:|---:|---:|');
  console.log(
    `| first lookup (reads every idea: the naive design, every time) | ${first.calls} | ${first.depth} | ${ms(first.ms)} | ${ms(first.ms)} |`,
  );
  console.log(
    `| warm (${warm.length} lookups) | ${Math.max(...warm.map((s) => s.calls))} | ${Math.max(...warm.map((s) => s.depth))} | ${ms(percentile(warmMs, 0.5))} | ${ms(percentile(warmMs, 0.95))} |`,
  );
  console.log(`\nwarm p95 / first lookup: ${(percentile(warmMs, 0.95) / first.ms).toFixed(3)}`);
}
