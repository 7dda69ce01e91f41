/**
 * Survey responses: submit (warm: one transaction), continue, read, list, and a bounded burst of
 * concurrent submits to one survey (`BENCH_RESPONSE_BURST`, default 200, 20 in flight), which shows
 * what the sharded counters and the per-instance version cache give under load.
 */
import type { Sandbox } from '../local/sandbox.ts';
import { benchWorkspace, type BenchContext as Context, draftSurvey, publishSurvey, type Scenario, send } from './harness.ts';

const t = (en: string) => ({ en });
const choice = (id: string, ids: string[], extra: Record<string, unknown> = {}) => ({
  id,
  type: 'singleChoice',
  headline: t(id),
  required: true,
  options: ids.map((option) => ({ id: option, label: t(option) })),
  ...extra,
});

/** A survey with routing, an option filter and visibility, as the README's. */
const definition = {
  languages: ['en'],
  questions: [
    choice('plan', ['free', 'pro', 'team'], {
      routes: [{ when: { question: 'plan', operator: 'equals', value: 'team' }, goTo: 'team-thanks' }],
    }),
    { ...choice('channels', ['chat', 'mail', 'api']), type: 'multipleChoice' },
    choice('favourite', ['chat', 'mail', 'api'], { optionFilter: { sourceQuestionId: 'channels', mode: 'selected' } }),
    { id: 'score', type: 'nps', headline: t('score'), required: true },
    { id: 'why', type: 'openText', headline: t('why'), required: false, visibleIf: { question: 'score', operator: 'atMost', value: 6 } },
  ],
  endings: [
    { id: 'thanks', headline: t('Thanks') },
    { id: 'team-thanks', headline: t('Thanks, team') },
  ],
};
const finishedAnswers = { plan: 'pro', channels: ['chat', 'api'], favourite: 'api', score: 4, why: 'Faster replies' };

async function withPublishedSurvey(sandbox: Sandbox): Promise<Context> {
  const context = await benchWorkspace(sandbox, 'responses');
  const survey = await draftSurvey(context, 'Bench responses', definition);
  await publishSurvey(context, survey);
  const path = `/surveys/${survey.surveyId}`;
  const partial = (await (await send(context, 'POST', `${path}/responses`, { answers: { plan: 'pro' }, finished: false })).json()) as {
    response: { id: string };
  };
  context.data = { surveyId: survey.surveyId, responseId: partial.response.id, etag: '"1"' };
  return context;
}

const responses = (c: Context) => `/surveys/${c.data.surveyId}/responses`;

export const surveyResponseScenarios: Scenario[] = [
  {
    name: 'POST /surveys/{id}/responses (finished, warm)',
    setup: withPublishedSurvey,
    request: (c) => send(c, 'POST', responses(c), { answers: finishedAnswers, respondent: { externalId: 'bench-1' } }),
  },
  {
    name: 'PATCH /surveys/{id}/responses/{responseId}',
    setup: withPublishedSurvey,
    request: async (c) => {
      const channels = c.data.etag === '"1"' ? ['chat'] : ['mail'];
      const res = await send(
        c,
        'PATCH',
        `${responses(c)}/${c.data.responseId}`,
        { answers: { channels } },
        { 'If-Match': c.data.etag ?? '"1"' },
      );
      c.data.etag = res.headers.get('etag') ?? c.data.etag ?? '"1"';
      return res;
    },
  },
  {
    name: 'GET /surveys/{id}/responses/{responseId}',
    setup: withPublishedSurvey,
    request: (c) => send(c, 'GET', `${responses(c)}/${c.data.responseId}`),
  },
  { name: 'GET /surveys/{id}/responses', setup: withPublishedSurvey, request: (c) => send(c, 'GET', responses(c)) },
];

/** Concurrent submits to one survey: throughput, latency and failures (none expected). */
export async function benchResponseBurst(sandbox: Sandbox, count = Number(process.env.BENCH_RESPONSE_BURST ?? 200)): Promise<void> {
  if (count <= 0) return;
  const context = await withPublishedSurvey(sandbox);
  const inFlight = 20;
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  for (let i = 0; i < count; i += inFlight) {
    await Promise.all(
      Array.from({ length: Math.min(inFlight, count - i) }, async () => {
        const t0 = performance.now();
        const res = await send(context, 'POST', responses(context), { answers: finishedAnswers });
        latencies.push(performance.now() - t0);
        if (res.status !== 201) failed++;
        await res.arrayBuffer();
      }),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(1);
  const total = ((await (await send(context, 'GET', `${responses(context)}?limit=1`)).json()) as { pagination: { total: number } })
    .pagination.total;
  console.log(
    `\n## Submit burst: ${count} responses to one survey, ${inFlight} in flight\n\n` +
      `${(count / seconds).toFixed(0)} submits/s, p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, failed ${failed}, total counted ${total - 1} (+1 partial)`,
  );
}
