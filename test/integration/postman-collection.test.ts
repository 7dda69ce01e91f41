/**
 * The Postman collection (clients/postman, `npm run collections`) runs against a fresh workspace of
 * the sandbox with newman, folder after folder as a person would in Postman: every request gets
 * the status the collection's own test expects, which is the operation's documented success (or,
 * for the few that cannot succeed in a fresh workspace, a status the document lists: flow.ts).
 */
import newman, { type NewmanRunSummary } from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postmanCollection } from '../../clients/collections/postman.ts';
import { setIdeaLabels } from '../../lib/admin/workspaces.ts';
import { routes } from '../../lib/manifest.ts';
import { documentedStatuses } from '../support/documented-responses.ts';
import { adminStore, newWorkspace, sandbox, type TestWorkspace } from '../support/fixtures.ts';
import { importTestDirectory } from '../support/sop-fixtures.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

let ws: TestWorkspace;
let receiver: Receiver;

beforeAll(async () => {
  ws = await newWorkspace('postman');
  await setIdeaLabels(adminStore(), ws.slug, { statuses: ['new', 'planned', 'done'], modules: ['billing', 'mobile-app'] });
  await importTestDirectory(ws);
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

function runCollection(collection: object): Promise<NewmanRunSummary> {
  return new Promise((resolve, reject) =>
    newman.run(
      {
        collection: collection as never,
        envVar: [
          { key: 'baseUrl', value: sandbox.apiUrl },
          { key: 'workspaceHost', value: ws.host },
          { key: 'key', value: ws.key },
          { key: 'webhookUrl', value: receiver.url },
        ],
        reporters: [],
        timeoutRequest: 30_000,
      },
      (error, summary) => (error ? reject(error) : resolve(summary)),
    ),
  );
}

describe('clients/postman against the sandbox (newman)', () => {
  it('runs every request of the collection in order, each answered as its test expects', async () => {
    const summary = await runCollection(await postmanCollection());
    const results = summary.run.executions.map((execution) => ({
      operationId: String(execution.item.id).replace(' (again)', ''),
      status: execution.response?.code,
      failed: execution.assertions.filter((a) => a.error).map((a) => `${a.assertion}: ${a.error.message}`),
      body: execution.response?.stream?.toString().slice(0, 300),
    }));
    expect(results.map((r) => r.operationId)).toEqual(expect.arrayContaining(routes.map((route) => route.operationId)));
    for (const result of results) {
      const route = routes.find((r) => r.operationId === result.operationId)!;
      expect(documentedStatuses(route), `${result.operationId} answered ${result.status}, which its document does not list`).toContain(
        result.status,
      );
    }
    // Each request's own test: the status of its recorded call, the operation's documented success.
    expect(results.filter((r) => r.failed.length > 0)).toEqual([]);
    expect(results.filter((r) => r.status === 200 || r.status === 201 || r.status === 202).length).toBe(results.length);
    expect(summary.run.failures).toEqual([]);
  }, 180_000);
});
