import type { Sandbox } from '../local/sandbox.ts';
import type { BenchContext, Scenario } from './harness.ts';
import { benchWorkspace, send } from './harness.ts';
import { ideaScenarios } from './ideas.ts';
import { journeyMetricScenarios } from './journey-metrics.ts';
import { journeyScenarios } from './journeys.ts';
import { knowledgeBankScenarios } from './knowledge-bank.ts';
import { surveyResponseScenarios } from './survey-responses.ts';
import { surveySummaryScenarios } from './survey-summary.ts';
import { surveyScenarios } from './surveys-scenarios.ts';

/** A workspace holding `count` ideas; `data.ideaId` is the newest. */
async function withIdeas(sandbox: Sandbox, count: number): Promise<BenchContext> {
  const context = await benchWorkspace(sandbox);
  for (let i = 0; i < count; i++) {
    const res = await send(context, 'POST', '/ideas', { title: `Idea ${i}`, description: 'Benchmark idea' });
    context.data.ideaId = ((await res.json()) as { data: { id: string } }).data.id;
  }
  return context;
}

async function withSop(sandbox: Sandbox): Promise<BenchContext> {
  const context = await benchWorkspace(sandbox);
  const res = await send(context, 'POST', '/sops', { titleEn: 'Refund request', type: 'inquiry' });
  context.data.sopId = ((await res.json()) as { sop: { id: string } }).sop.id;
  return context;
}

/** A workspace holding `count` webhooks (the sandbox accepts a local URL); `data.webhookId` is the last. */
async function withWebhooks(sandbox: Sandbox, count: number): Promise<BenchContext> {
  const context = await benchWorkspace(sandbox);
  for (let i = 0; i < count; i++) {
    const res = await send(context, 'POST', '/webhooks', { name: `Hook ${i}`, url: 'http://127.0.0.1:9/hook', events: ['idea.submitted'] });
    context.data.webhookId = ((await res.json()) as { webhook: { id: string } }).webhook.id;
  }
  return context;
}

export const scenarios: Scenario[] = [
  { name: 'GET /me', setup: benchWorkspace, request: (c) => send(c, 'GET', '/me') },
  { name: 'POST /ideas', setup: benchWorkspace, request: (c) => send(c, 'POST', '/ideas', { title: 'A new idea' }) },
  { name: 'GET /ideas/{id}', setup: (s) => withIdeas(s, 1), request: (c) => send(c, 'GET', `/ideas/${c.data.ideaId}`) },
  {
    name: 'PATCH /ideas/{id}',
    setup: (s) => withIdeas(s, 1),
    request: (c) => send(c, 'PATCH', `/ideas/${c.data.ideaId}`, { description: `at ${Date.now()}` }),
  },
  { name: 'GET /ideas (100 ideas, first page)', setup: (s) => withIdeas(s, 100), request: (c) => send(c, 'GET', '/ideas?limit=25') },
  {
    name: 'GET /ideas (100 ideas, offset 75)',
    setup: (s) => withIdeas(s, 100),
    request: (c) => send(c, 'GET', '/ideas?limit=25&offset=75'),
  },
  ...ideaScenarios,
  { name: 'POST /sops', setup: benchWorkspace, request: (c) => send(c, 'POST', '/sops', { titleEn: 'Refund request', type: 'inquiry' }) },
  { name: 'GET /sops/{id}', setup: withSop, request: (c) => send(c, 'GET', `/sops/${c.data.sopId}`) },
  { name: 'GET /sops', setup: withSop, request: (c) => send(c, 'GET', '/sops') },
  { name: 'GET /webhooks (10 webhooks)', setup: (s) => withWebhooks(s, 10), request: (c) => send(c, 'GET', '/webhooks') },
  { name: 'GET /webhooks/{id}', setup: (s) => withWebhooks(s, 1), request: (c) => send(c, 'GET', `/webhooks/${c.data.webhookId}`) },
  {
    name: 'PATCH /webhooks/{id} (name)',
    setup: (s) => withWebhooks(s, 1),
    request: (c) => send(c, 'PATCH', `/webhooks/${c.data.webhookId}`, { name: `at ${Date.now()}` }),
  },
  {
    name: 'GET /webhooks/{id}/deliveries',
    setup: (s) => withWebhooks(s, 1),
    request: (c) => send(c, 'GET', `/webhooks/${c.data.webhookId}/deliveries`),
  },
  {
    name: 'GET /me with a revoked-format key (401, no DB)',
    setup: benchWorkspace,
    request: (c) => send({ ...c, key: 'cxk_bad' }, 'GET', '/me'),
  },
  ...journeyScenarios,
  ...journeyMetricScenarios,
  { name: 'GET /openapi.json', setup: benchWorkspace, request: (c) => fetch(`${c.api}/openapi.json`) },
  { name: 'unknown route (404)', setup: benchWorkspace, request: (c) => send(c, 'GET', '/nope') },
  ...knowledgeBankScenarios,
  ...surveyScenarios,
  ...surveySummaryScenarios,
  ...surveyResponseScenarios,
];
