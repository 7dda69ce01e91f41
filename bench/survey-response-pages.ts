/**
 * `npm run bench:response-pages`: what a page of a survey's responses costs now that they are kept in
 * 64 ranges (docs/survey-responses.md, "Keys that spread"): read units, DynamoDB calls and round trips
 * per page of the list (by offset, by cursor, filtered) and of the change feed, measured on a sandbox
 * that asks DynamoDB for the units each call consumed (SANDBOX_COST_LOG, local/consumed-capacity.ts).
 * Responses of 20 open-text answers, about 4 KB each (the target workload); their number is
 * `BENCH_PAGE_RESPONSES` (default 640: ten a range).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchContext, benchWorkspace, draftSurvey, publishSurvey, send } from './harness.ts';

const RESPONSES = Number(process.env.BENCH_PAGE_RESPONSES ?? 640);
const QUESTIONS = 20;

const log = join(mkdtempSync(join(tmpdir(), 'cx-pages-')), 'costs.jsonl');
writeFileSync(log, '');
process.env.SANDBOX_COST_LOG = log;
const { startSandbox } = await import('../local/sandbox.ts');

const definition = {
  languages: ['en'],
  questions: Array.from({ length: QUESTIONS }, (_, i) => ({
    id: `q${i}`,
    type: 'openText',
    headline: { en: `Question ${i}` },
    required: false,
  })),
  endings: [{ id: 'thanks', headline: { en: 'Thanks' } }],
};
// 20 answers of 180 characters: the item is about 4 KB with its keys and attributes.
const answers = Object.fromEntries(definition.questions.map((q, i) => [q.id, `${'Answer text '.repeat(15)}${i}`.slice(0, 180)]));

interface Cost {
  readUnits: number;
  calls: number;
  roundTrips: number;
}

function lastCost(): Omit<Cost, 'roundTrips'> {
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  const last = JSON.parse(lines.at(-1) as string) as { readUnits: number; calls: number };
  return { readUnits: last.readUnits, calls: last.calls };
}

interface Page {
  responses: { id: string }[];
  pagination: { nextCursor: string | null };
}

async function measured(context: BenchContext, path: string): Promise<Cost & { body: Page }> {
  const res = await send(context, 'GET', path);
  const body = (await res.json()) as Page;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return { ...lastCost(), roundTrips: Number(res.headers.get('x-sandbox-dynamodb-depth')), body };
}

const sandbox = await startSandbox({ port: 0 });
try {
  const context = await benchWorkspace(sandbox, 'pages');
  await send(context, 'GET', '/me');
  const AUTH_ROUND_TRIPS = Number((await send(context, 'GET', '/me')).headers.get('x-sandbox-dynamodb-depth'));
  const published = await draftSurvey(context, 'Pages', definition);
  await publishSurvey(context, published);
  const survey = `/surveys/${published.surveyId}`;
  for (let i = 0; i < RESPONSES; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, RESPONSES - i) }, (_, j) =>
        send(context, 'POST', `${survey}/responses`, { answers, finished: (i + j) % 4 !== 0 }).then((r) => r.arrayBuffer()),
      ),
    );
  }
  const rows: [string, Cost[]][] = [];
  const pages = async (name: string, first: string, pagesToWalk: number) => {
    const costs: Cost[] = [];
    let path: string | null = first;
    await measured(context, first); // this instance learns the survey's ranges first (a cold list reads the counters first)
    while (path && costs.length < pagesToWalk) {
      const page = await measured(context, path);
      costs.push(page);
      const cursor = page.body.pagination.nextCursor as string | null;
      path = cursor ? `${first}${first.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : null;
    }
    rows.push([name, costs]);
  };
  for (const limit of [10, 25, 100]) await pages(`list, limit ${limit}, by cursor`, `${survey}/responses?limit=${limit}`, 10);
  await pages('list, limit 25, status=partial', `${survey}/responses?limit=25&status=partial`, 5);
  const offsets: Cost[] = [];
  for (const offset of [0, 25, 100, 250]) offsets.push(await measured(context, `${survey}/responses?limit=25&offset=${offset}`));
  rows.push(['list, limit 25, offset 0 / 25 / 100 / 250', offsets]);
  await pages('change feed, limit 25, by cursor', `${survey}/responses?updatedSince=2000-01-01T00:00:00Z&limit=25`, 10);
  const ids = (await measured(context, `${survey}/responses?limit=5`)).body.responses.map((r: { id: string }) => r.id) as string[];
  const reads: Cost[] = [];
  for (const id of ids) reads.push(await measured(context, `${survey}/responses/${id}`));
  rows.push(['read one response', reads]);

  const mean = (costs: Cost[], of: keyof Cost) => costs.reduce((sum, cost) => sum + cost[of], 0) / costs.length;
  console.log(
    `\n${RESPONSES} responses of ${QUESTIONS} open-text answers (about 4 KB each), in 64 ranges; strongly consistent list reads.`,
  );
  console.log('Read units and calls include the two of authorisation (workspace and key: 1 read unit each).\n');
  console.log('| Read | pages | read units per page (mean, min–max) | calls | round trips beyond authorisation (mean, max) |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [name, costs] of rows) {
    const units = costs.map((cost) => cost.readUnits);
    const trips = costs.map((cost) => cost.roundTrips - AUTH_ROUND_TRIPS);
    console.log(
      `| ${name} | ${costs.length} | ${mean(costs, 'readUnits').toFixed(1)} (${Math.min(...units)}–${Math.max(...units)}) | ${mean(costs, 'calls').toFixed(1)} | ${(trips.reduce((a, b) => a + b, 0) / trips.length).toFixed(2)} (${Math.max(...trips)}) |`,
    );
  }
} finally {
  await sandbox.stop();
}
