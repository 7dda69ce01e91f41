/**
 * The document's event catalog (its `webhooks` section, lib/webhooks/event-catalog.ts) is what the
 * sandbox really delivers: the sample receiver (`npm run webhook-receiver`, as docs/webhooks.md runs
 * it) gets one event of every kind, verifies each, and every body it printed validates against the
 * schema the document gives that kind, with the headers the document names.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument } from '../../lib/api-document.ts';
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../../lib/webhooks/events.ts';
import { freePort } from '../../local/wait.ts';
import { undocumentedEvent } from '../support/documented-responses.ts';
import { clientFor, type TestWorkspace } from '../support/fixtures.ts';
import { ideasWorkspace, STATUSES } from '../support/ideas.ts';
import { publishedSurvey } from '../support/surveys.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

const ROOT = resolve(import.meta.dirname, '../..');

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let receiver: ChildProcess;
let printed = '';

/** The sample receiver, started as the webhooks walkthrough starts it. */
async function startSampleReceiver(secret: string): Promise<string> {
  const port = await freePort();
  receiver = spawn(process.execPath, ['--import', 'tsx', 'scripts/webhook-receiver.ts'], {
    cwd: ROOT,
    env: { ...process.env, WEBHOOK_SECRET: secret, RECEIVER_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  receiver.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  receiver.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  await until(() => printed.includes('Webhook receiver on'), 'the receiver to listen');
  return `http://127.0.0.1:${port}/hook`;
}

async function until(done: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}. The receiver printed:\n${printed}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each delivery the receiver printed: its verdict line and the body on the line after it. */
function deliveries(): { verdict: string; body: { type: string } & Record<string, unknown> }[] {
  const lines = printed.split('\n');
  return lines.flatMap((line, i) => (line.includes(' POST /hook ') ? [{ verdict: line, body: JSON.parse(lines[i + 1]!.trim()) }] : []));
}

beforeAll(async () => {
  ws = await ideasWorkspace('event-catalog');
  api = clientFor(ws);
});

afterAll(() => {
  receiver?.kill();
});

describe('the webhook event catalog', () => {
  it('lists every event kind, and the verification event, with the delivery headers and the Bearer secret', () => {
    const document = apiDocument() as any;
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE, 'webhook.verification'].sort());
    for (const [type, { post }] of Object.entries<any>(document.webhooks)) {
      expect(
        post.parameters.map((p: { name: string }) => p.name),
        type,
      ).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      expect(post.security, type).toEqual([{ webhookSecret: [] }]);
      expect(Object.keys(post.responses), type).toEqual(['410', '2XX', 'default']);
      expect(post.description, type).toMatch(/Retries.*5 s, 30 s, 2 min.*At least once, ordered by `webhook-id`/s);
      const example = post.requestBody.content['application/json'].examples.sent.value;
      expect(undocumentedEvent(example), type).toBeNull();
    }
    expect(document.components.securitySchemes.webhookSecret).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes exactly what the sandbox delivers: every event the sample receiver gets validates against its schema', async () => {
    const created = await api.post('/webhooks', {
      body: { name: 'Catalog', url: 'http://127.0.0.1:9/hook', events: [...WEBHOOK_EVENT_TYPES] },
    });
    expect(created.status, created.text).toBe(201);
    const hook = created.body.webhook.id as string;
    const url = await startSampleReceiver(created.body.webhook.secret);
    expect((await api.patch(`/webhooks/${hook}`, { body: { url } })).status).toBe(200);
    expect((await api.post(`/webhooks/${hook}/enable`)).status).toBe(200);

    const idea = await api.post('/ideas', { body: { title: 'Dark mode', status: STATUSES[0] } });
    const id = idea.body.data.id as string;
    await api.patch(`/ideas/${id}`, { body: { description: 'Night shifts' } });
    await api.patch(`/ideas/${id}`, { body: { status: STATUSES[1] } });
    const vote = await api.post(`/ideas/${id}/votes`, { body: { voter: { externalId: 'crm-1' }, importance: 'critical' } });
    expect(vote.status, vote.text).toBe(201);
    expect((await api.delete(`/ideas/${id}/votes/${vote.body.vote.id}`)).status).toBe(200);
    const comment = await api.post(`/ideas/${id}/comments`, { body: { body: 'Please', author: { externalId: 'crm-1' } } });
    expect(comment.status, comment.text).toBe(201);
    const duplicate = (await api.post('/ideas', { body: { title: 'Night theme', status: STATUSES[0] } })).body.data.id as string;
    const merged = await api.post(`/ideas/${duplicate}/merge`, { headers: { 'If-Match': '"1"' }, body: { into: id } });
    expect(merged.status, merged.text).toBe(200);
    const unmerged = await api.post(`/ideas/${duplicate}/unmerge`, { headers: { 'If-Match': merged.headers.get('etag')! } });
    expect(unmerged.status, unmerged.text).toBe(200);
    await api.delete(`/ideas/${id}`);
    // A webhook's own lifecycle events go to the workspace's other webhooks: another one, disabled and enabled again.
    const otherReceiver = await startReceiver();
    const other = await api.post('/webhooks', { body: { name: 'Other', url: otherReceiver.url, events: ['idea.submitted'] } });
    expect((await api.post(`/webhooks/${other.body.webhook.id}/enable`)).status).toBe(200);
    expect((await api.post(`/webhooks/${other.body.webhook.id}/disable`)).status).toBe(200);
    expect((await api.post(`/webhooks/${other.body.webhook.id}/enable`)).status).toBe(200);
    // And a test event.
    expect((await api.post(`/webhooks/${hook}/test`)).status).toBe(202);
    const { surveyId } = await publishedSurvey(api);
    const answers = { plan: 'pro', channels: ['chat'], favourite: 'chat', score: 9 };
    expect((await api.post(`/surveys/${surveyId}/responses`, { body: { answers } })).status).toBe(201);

    const kinds = () => new Set(deliveries().map((d) => d.body.type));
    await until(() => [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE].every((type) => kinds().has(type)), 'one delivery of every event kind');
    await otherReceiver.close();
    const received = deliveries();
    expect([...kinds()].sort()).toEqual([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE, 'webhook.verification'].sort());
    for (const { verdict, body } of received) {
      expect(verdict, body.type).toMatch(/webhook-id=evt_\w+ bearer ok, signature ok → 204$/);
      expect(undocumentedEvent(body), JSON.stringify(body)).toBeNull();
    }
    // The schemas are exact: a member the document does not list (a title, say) would fail them.
    const submitted = received.find((d) => d.body.type === 'idea.submitted')!.body;
    expect(undocumentedEvent({ ...submitted, data: { ...(submitted.data as object), title: 'Dark mode' } })).toMatch(/additional/);
  }, 60_000);
});
