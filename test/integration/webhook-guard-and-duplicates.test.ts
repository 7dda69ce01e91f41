/**
 * The webhook handlers invoked in this process, as Lambda invokes them, against the sandbox's
 * DynamoDB Local and SQS emulator, with the SSRF guard ON (the sandbox itself relaxes it so
 * receivers on 127.0.0.1 work). The fan-out and delivery functions use a queue of this file's
 * own, which the sandbox does not poll, so the test decides when and how often a message is
 * delivered: that is how duplicates are made.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ideaEntity } from '../../lib/ideas/entities.ts';
import type { LambdaHandler } from '../../lib/platform/http/api-handler.ts';
import { ensureQueues } from '../../local/queues.ts';
import { apiEvent, lambdaContext } from '../support/events.ts';
import { clientFor, newWorkspace, sandbox, type TestWorkspace, useSandboxEnvironment } from '../support/fixtures.ts';
import { eventually, type Receiver, startReceiver, verifySignature } from '../support/webhook-receiver.ts';

const sqs = new SQSClient({
  endpoint: sandbox.sqsEndpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
let queueUrl: string;
let ws: TestWorkspace;
let receiver: Receiver;
let createWebhook: LambdaHandler;
let enableWebhook: LambdaHandler;
let fanOut: (event: DynamoDBStreamEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;
let deliver: (event: SQSEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

beforeAll(async () => {
  const suffix = randomBytes(4).toString('hex');
  const dlq = { id: 'Dlq', sandboxName: `guard-test-dlq-${suffix}`, visibilityTimeoutSeconds: 30, retentionSeconds: 3600 };
  const main = {
    id: 'Main',
    sandboxName: `guard-test-${suffix}`,
    visibilityTimeoutSeconds: 30,
    retentionSeconds: 3600,
    deadLetter: { queue: dlq, maxReceiveCount: 5 },
  };
  const queues = await ensureQueues(sqs, sandbox.sqsEndpoint, [dlq, main]);
  queueUrl = queues.get(main)!.url;
  useSandboxEnvironment({
    WEBHOOK_DELIVERY_QUEUE_URL: queueUrl,
    WEBHOOK_DEAD_LETTER_QUEUE_URL: queues.get(dlq)!.url,
    WEBHOOK_RETRY_DELAYS: '1',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
  });
  createWebhook = (await import('../../functions/webhooks/create-webhook.ts')).handler;
  enableWebhook = (await import('../../functions/webhooks/enable-webhook.ts')).handler;
  // The deployed entry's webhook events reader alone (functions/table-stream/webhook-events-and-survey-summaries.ts
  // runs the survey summaries before it, which these idea records do not concern).
  const { readTableStream } = await import('../../lib/platform/partial-batch.ts');
  const { webhookEvents } = await import('../../lib/webhooks/stream-readers.ts');
  fanOut = readTableStream({ readers: [webhookEvents] }, [webhookEvents]);
  deliver = (await import('../../functions/webhooks/deliver-webhooks.ts')).handler;
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
});

beforeEach(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'false';
  process.env.WEBHOOK_ALLOW_HTTP = 'true';
  // A workspace per test, so each fan-out sees only the webhooks of its own test.
  ws = await newWorkspace('guard');
});

function invoke(handler: LambdaHandler, method: string, path: string, pathParameters?: Record<string, string>, body?: unknown) {
  return handler(
    apiEvent({
      method,
      path: `/api/v1${path}`,
      pathParameters,
      headers: { 'x-service-workspace-host': ws.host, authorization: `Bearer ${ws.key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    lambdaContext(),
  );
}

const parse = (result: Awaited<ReturnType<LambdaHandler>>) => ({ status: result.statusCode, body: JSON.parse(result.body as string) });

const createIn = async (url: string) =>
  parse(await invoke(createWebhook, 'POST', '/webhooks', undefined, { name: 'guarded', url, events: ['idea.submitted'] }));

/** A webhook on the local receiver, created and enabled through the sandbox API (where private networks are allowed). */
async function localWebhook(): Promise<{ id: string; secret: string }> {
  const api = clientFor(ws);
  const created = await api.post('/webhooks', { body: { name: 'local', url: receiver.url, events: ['idea.submitted'] } });
  expect((await api.post(`/webhooks/${created.body.webhook.id}/enable`)).status).toBe(200);
  return { id: created.body.webhook.id, secret: created.body.webhook.secret };
}

/** A stream record of a new idea, shaped as Lambda delivers it. */
function ideaInsertRecord(ideaId: string): DynamoDBRecord {
  return {
    eventID: randomUUID(),
    eventName: 'INSERT',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      SequenceNumber: String(BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000))),
      Keys: { pk: { S: ideaEntity.keys.idea(ws.slug, ideaId).pk }, sk: { S: ideaEntity.keys.idea(ws.slug, ideaId).sk } },
      NewImage: {
        pk: { S: ideaEntity.keys.idea(ws.slug, ideaId).pk },
        sk: { S: ideaEntity.keys.idea(ws.slug, ideaId).sk },
        entity: { S: 'Idea' },
        id: { S: ideaId },
        workspace: { S: ws.slug },
        version: { N: '1' },
      },
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

/** Everything on this file's queue now, as SQS records (received, so invisible for 30 s). */
async function takeMessages(expected: number): Promise<SQSRecord[]> {
  const records: SQSRecord[] = [];
  await eventually(
    async () => {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      for (const m of Messages) {
        records.push({ messageId: m.MessageId!, receiptHandle: m.ReceiptHandle!, body: m.Body! } as SQSRecord);
      }
      return records.length;
    },
    (count) => count >= expected,
    10_000,
  );
  return records;
}

async function deliveriesOf(webhookId: string) {
  const res = await clientFor(ws).get(`/webhooks/${webhookId}/deliveries`);
  return res.body.deliveries as any[];
}

describe('with the SSRF guard on, saving a URL', () => {
  it.each([
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['a 10/8 address', 'https://10.1.2.3/hook'],
    ['an IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['a decimal-encoded IP (2130706433 = 127.0.0.1)', 'https://2130706433/hook'],
    ['a hex-encoded IP', 'https://0x7f.0x0.0x0.0x1/hook'],
    ['a host name that resolves to loopback', 'https://localhost/hook'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['an IPv6 unique local address', 'https://[fd00::1]/hook'],
    ['a CGNAT address', 'https://100.64.0.1/hook'],
    ['a multicast address', 'https://224.0.0.1/hook'],
  ])('refuses %s with 400 webhook_url_not_allowed', async (_, url) => {
    const res = await createIn(url);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      ok: false,
      error: 'webhook_url_not_allowed',
      message: expect.stringContaining('not a public internet address'),
    });
  });

  it('accepts a public address, and refuses http when http is not allowed', async () => {
    expect((await createIn('https://93.184.215.14/hook')).status).toBe(201);
    process.env.WEBHOOK_ALLOW_HTTP = 'false';
    const res = await createIn('http://93.184.215.14/hook');
    expect(res.body).toMatchObject({ error: 'webhook_url_not_allowed', message: expect.stringContaining('must use https') });
  });

  it('refuses the same private URLs on PATCH', async () => {
    const update = (await import('../../functions/webhooks/update-webhook.ts')).handler;
    const created = await createIn('https://93.184.215.14/hook');
    const res = parse(
      await invoke(
        update,
        'PATCH',
        `/webhooks/${created.body.webhook.id}`,
        { id: created.body.webhook.id },
        { url: 'https://169.254.169.254/' },
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('webhook_url_not_allowed');
  });
});

describe('with the SSRF guard on, sending', () => {
  it('checks again at enable time: a receiver on 127.0.0.1 saved earlier gets no verification event', async () => {
    const api = clientFor(ws);
    const created = await api.post('/webhooks', { body: { name: 'saved while relaxed', url: receiver.url, events: ['idea.submitted'] } });
    const before = receiver.requests.length;
    const res = parse(await invoke(enableWebhook, 'POST', `/webhooks/${created.body.webhook.id}/enable`, { id: created.body.webhook.id }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'webhook_verification_failed',
      message: expect.stringContaining('blocked: the address 127.0.0.1 is not a public internet address'),
    });
    expect(receiver.requests.length).toBe(before);
  });

  it('checks the address actually connected to: a name resolving to loopback is refused at connection time', async () => {
    const { postJson } = await import('../../lib/platform/outbound/http-post.ts');
    const before = receiver.requests.length;
    const outcome = await postJson(receiver.url.replace('127.0.0.1', 'localhost'), '{}', { 'Content-Type': 'application/json' });
    expect(outcome).toMatchObject({
      ok: false,
      status: null,
      error: expect.stringMatching(/^blocked: the address (127\.0\.0\.1|::1) is not a public internet address$/),
    });
    expect(receiver.requests.length).toBe(before);
  });

  it('checks again at every delivery: the attempt fails, is recorded, and is retried, but nothing is sent', async () => {
    const hook = await localWebhook();
    const before = receiver.requests.length;
    expect((await fanOut({ Records: [ideaInsertRecord(`guard-${randomUUID().slice(0, 6)}`)] })).batchItemFailures).toEqual([]);
    const [message] = await takeMessages(1);
    expect((await deliver({ Records: [message!] })).batchItemFailures).toEqual([]);
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({
      outcome: 'retrying',
      attempt: 1,
      responseStatus: null,
      error: 'blocked: the address 127.0.0.1 is not a public internet address',
      nextAttemptAt: expect.any(String),
    });
    expect(receiver.requests.length).toBe(before);
    // The retry was queued (attempt 2).
    const [retry] = await takeMessages(1);
    expect(JSON.parse(retry!.body)).toMatchObject({ webhookId: hook.id, attempt: 2, notBefore: expect.any(Number) });
  });
});

describe('the webhook HTTP client', () => {
  it('reads at most 64 KB of a response: a receiver that keeps streaming cannot hold a delivery', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('x'.repeat(100 * 1024)); // and never end
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { postJson } = await import('../../lib/platform/outbound/http-post.ts');
      const { port } = server.address() as { port: number };
      const outcome = await postJson(`http://127.0.0.1:${port}/hook`, '{}', {}, { allowPrivateNetworks: true });
      expect(outcome).toMatchObject({ ok: true, status: 200, error: null });
      expect(outcome.durationMs).toBeLessThan(5000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('duplicates', () => {
  beforeEach(() => {
    process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = 'true';
  });

  it('a stream record handled twice gives one delivery and one request, with one webhook-id', async () => {
    const hook = await localWebhook();
    const ideaId = `dup-${randomUUID().slice(0, 6)}`;
    const record = ideaInsertRecord(ideaId);
    await fanOut({ Records: [record] });
    await fanOut({ Records: [record] });
    const messages = await takeMessages(2);
    expect(messages).toHaveLength(2);
    expect((await deliver({ Records: messages })).batchItemFailures).toEqual([]);
    const requests = receiver.requests.filter((r) => r.json?.data?.ideaId === ideaId);
    expect(requests).toHaveLength(1);
    verifySignature(hook.secret, requests[0]!);
    const list = await deliveriesOf(hook.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ outcome: 'delivered', attempt: 1, eventId: requests[0]!.headers['webhook-id'] });
  });

  it('two copies of one message delivered in separate invocations at the same time send once', async () => {
    const hook = await localWebhook();
    const ideaId = `dup-${randomUUID().slice(0, 6)}`;
    await fanOut({ Records: [ideaInsertRecord(ideaId)] });
    const [message] = await takeMessages(1);
    receiver.respondWith(() => ({ status: 200, delayMs: 300 }));
    try {
      const copies = [message!, { ...message!, messageId: randomUUID() }];
      const results = await Promise.all(copies.map((copy) => deliver({ Records: [copy] })));
      for (const result of results) expect(result.batchItemFailures).toEqual([]);
    } finally {
      receiver.respondWith(() => ({ status: 204 }));
    }
    expect(receiver.requests.filter((r) => r.json?.data?.ideaId === ideaId)).toHaveLength(1);
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ outcome: 'delivered', attempt: 1 });
  });

  it('a malformed message is reported as failed (SQS keeps it, then redrives it to the dead-letter queue), never dropped', async () => {
    const message = { messageId: randomUUID(), receiptHandle: 'not-a-real-handle', body: '{"not":"a delivery"}' } as SQSRecord;
    const result = await deliver({ Records: [message] });
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: message.messageId }]);
  });
});
