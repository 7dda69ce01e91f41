/**
 * Shared set-up of the webhook pipeline tests: a workspace per test file, receivers closed after
 * each test, and the API calls every such test makes (create and enable a webhook, read its
 * deliveries, find a dead letter).
 */
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, beforeAll, expect } from 'vitest';
import { clientFor, newWorkspace, sandbox, type TestWorkspace } from './fixtures.ts';
import { eventually, type ReceivedRequest, type Receiver, startReceiver } from './webhook-receiver.ts';

export const ALL_EVENTS = ['idea.submitted', 'idea.status_changed', 'idea.updated', 'idea.deleted'];

/** Requests about one idea. */
export const eventsFor = (ideaId: string) => (r: ReceivedRequest) => r.json?.data?.ideaId === ideaId;

export function usePipelineWorkspace(prefix: string) {
  let ws: TestWorkspace | undefined;
  const receivers: Receiver[] = [];
  const webhooks: string[] = [];
  beforeAll(async () => {
    ws = await newWorkspace(prefix);
  });
  // Each test starts with no webhook of an earlier one still listening in the shared workspace.
  afterEach(async () => {
    await Promise.all(webhooks.splice(0).map((id) => api().delete(`/webhooks/${id}`)));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  const api = () => clientFor(ws!);

  return {
    get ws(): TestWorkspace {
      return ws!;
    },
    get api() {
      return api();
    },
    /** A receiver on 127.0.0.1, closed after the test. */
    async receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
      const started = await startReceiver(...args);
      receivers.push(started);
      return started;
    },
    /** A webhook on `target`, created and enabled through the API. */
    async enabledWebhook(target: Receiver, events = ALL_EVENTS): Promise<{ id: string; secret: string }> {
      const created = await api().post('/webhooks', { body: { name: 'Pipeline test', url: target.url, events } });
      expect(created.status, created.text).toBe(201);
      webhooks.push(created.body.webhook.id);
      const enabled = await api().post(`/webhooks/${created.body.webhook.id}/enable`);
      expect(enabled.status, enabled.text).toBe(200);
      return { id: created.body.webhook.id, secret: created.body.webhook.secret };
    },
    async deliveries(webhookId: string): Promise<any[]> {
      const res = await api().get(`/webhooks/${webhookId}/deliveries`);
      expect(res.status, res.text).toBe(200);
      return res.body.deliveries;
    },
  };
}

/** Wait for the dead letter of one delivery in the sandbox's dead-letter queue, take it off and return its body. */
export async function takeDeadLetter(webhookId: string, eventId: string): Promise<Record<string, unknown>> {
  const sqs = new SQSClient({
    endpoint: sandbox.sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const letter = await eventually(
      async () => {
        // Visibility 0: letters of other tests stay where they are for them.
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: sandbox.queues.webhookDeadLetters,
            MaxNumberOfMessages: 10,
            VisibilityTimeout: 0,
            WaitTimeSeconds: 1,
          }),
        );
        return Messages.find((m) => {
          const letter = JSON.parse(m.Body!);
          return letter.webhookId === webhookId && letter.eventId === eventId;
        });
      },
      (found) => found !== undefined,
    );
    await sqs.send(new DeleteMessageCommand({ QueueUrl: sandbox.queues.webhookDeadLetters, ReceiptHandle: letter!.ReceiptHandle! }));
    return JSON.parse(letter!.Body!);
  } finally {
    sqs.destroy();
  }
}
