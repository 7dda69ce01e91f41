/**
 * Submitter identity, e-mail, identity hash and customer context: stored, but never in a response
 * body (checked on the raw text), never in a log line; and the stream shows status changes.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ideaEntity } from '../../lib/ideas/entities.ts';
import type { LambdaHandler } from '../../lib/platform/http/api-handler.ts';
import { tailTableStream } from '../support/dynamodb-stream.ts';
import { apiEvent, lambdaContext } from '../support/events.ts';
import { type ApiResponse, adminStore, clientFor, sandbox, type TestWorkspace, useSandboxEnvironment } from '../support/fixtures.ts';
import { ideasWorkspace } from '../support/ideas.ts';

const SECRETS = {
  name: 'Zephyrine Quillfeather',
  email: 'zephyrine.q@private-mail.example',
  externalId: 'crm-secret-4711',
  context: 'context-marker-b7f3',
};
const body = {
  title: 'Faster checkout',
  status: 'new',
  submitter: { name: SECRETS.name, email: SECRETS.email, externalId: SECRETS.externalId },
  customerContext: { segment: SECRETS.context, orders: 12, nested: { note: SECRETS.context } },
};

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await ideasWorkspace('ideas-privacy');
  api = clientFor(ws);
});

async function storedItem(id: string) {
  const { Item } = await adminStore().db.send(
    new GetCommand({ TableName: sandbox.tableName, Key: ideaEntity.keys.idea(ws.slug, id), ConsistentRead: true }),
  );
  return Item!;
}

function expectNothingPrivate(text: string, also: string[] = []): void {
  for (const secret of [...Object.values(SECRETS), ...also]) expect(text).not.toContain(secret);
}

describe('private idea data', () => {
  it('is stored with the idea, hashed identity included', async () => {
    const created = await api.post('/ideas', { body });
    const item = await storedItem(created.body.data.id);
    expect(item.submitter).toEqual(body.submitter);
    expect(item.submitterHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(item.customerContext)).toEqual(body.customerContext);
  });

  it('appears in no response body of any operation', async () => {
    const responses: ApiResponse[] = [];
    const headers = { 'Idempotency-Key': 'privacy-check' };
    const created = await api.post('/ideas', { body, headers });
    const { id } = created.body.data;
    const { submitterHash } = await storedItem(id);
    responses.push(
      created,
      await api.post('/ideas', { body, headers }),
      await api.post('/ideas', { body: { ...body, title: 'Other' }, headers }),
      await api.get(`/ideas/${id}`),
      await api.get('/ideas?limit=100'),
      await api.put(`/ideas/${id}`, { body }),
      await api.patch(`/ideas/${id}`, { body: { status: 'planned' } }),
      await api.patch(`/ideas/${id}`, { body: {} }),
      await api.patch(`/ideas/${id}`, { body: { status: 'done' }, headers: { 'If-Match': '"1"' } }),
      await api.post('/ideas', { body: { ...body, submitter: { ...body.submitter, email: `bad ${SECRETS.email}` } } }),
      await api.delete(`/ideas/${id}`),
    );
    expect(responses.map((r) => r.status)).toEqual([201, 201, 409, 200, 200, 200, 200, 200, 409, 400, 200]);
    for (const res of responses) {
      expectNothingPrivate(res.text, [submitterHash]);
      expectNothingPrivate(JSON.stringify(Object.fromEntries(res.headers)), [submitterHash]);
      if (res.body.ok) expect(res.text).not.toMatch(/submitter|customerContext|KeyId/);
    }
  });
});

describe('log lines', () => {
  const lines: string[] = [];
  let handlers: Record<'create' | 'get' | 'update', LambdaHandler>;

  beforeAll(async () => {
    // The handlers run in this process, logging everything, against the sandbox's DynamoDB Local.
    useSandboxEnvironment({ POWERTOOLS_LOG_LEVEL: 'DEBUG' });
    handlers = {
      create: (await import('../../functions/ideas/create-idea.ts')).handler,
      get: (await import('../../functions/ideas/get-idea.ts')).handler,
      update: (await import('../../functions/ideas/update-idea.ts')).handler,
    };
  });

  afterEach(() => vi.restoreAllMocks());

  function capture() {
    for (const stream of [process.stdout, process.stderr]) {
      vi.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      }) as typeof stream.write);
    }
  }

  function event(method: string, path: string, requestBody?: unknown, pathParameters?: Record<string, string>, headers = {}) {
    return apiEvent({
      method,
      path: `/api/v1${path}`,
      headers: { 'x-service-workspace-host': ws.host, authorization: `Bearer ${ws.key}`, 'content-type': 'application/json', ...headers },
      body: requestBody === undefined ? undefined : JSON.stringify(requestBody),
      pathParameters,
    });
  }

  it('never carry submitter data or customer context, on success or failure', async () => {
    capture();
    const created = await handlers.create(event('POST', '/ideas', body), lambdaContext());
    expect(created.statusCode).toBe(201);
    const { id } = JSON.parse(created.body!).data;
    const { submitterHash } = await storedItem(id);
    const rejected = await handlers.create(
      event('POST', '/ideas', { ...body, status: 'unconfigured', submitter: { email: `not an email ${SECRETS.email}` } }),
      lambdaContext(),
    );
    expect(rejected.statusCode).toBe(400);
    expect((await handlers.get(event('GET', `/ideas/${id}`, undefined, { id }), lambdaContext())).statusCode).toBe(200);
    const conflict = await handlers.update(
      event('PATCH', `/ideas/${id}`, { status: 'done' }, { id }, { 'if-match': '"9"' }),
      lambdaContext(),
    );
    expect(conflict.statusCode).toBe(409);

    // The capture is live: the rejections were logged, at the levels this test enabled.
    expect(lines.join('')).toMatch(/Request rejected/);
    for (const line of lines) expectNothingPrivate(line, [submitterHash]);
  });
});

describe('the DynamoDB stream', () => {
  it('shows the old and the new status of a status change, on an item marked as an idea', async () => {
    const created = await api.post('/ideas', { body: { title: 'Streamed', status: 'new' } });
    const { id } = created.body.data;
    const stream = await tailTableStream();
    await api.patch(`/ideas/${id}`, { body: { status: 'planned' } });

    let change: Awaited<ReturnType<typeof stream.next>>[number] | undefined;
    for (let attempt = 0; attempt < 50 && !change; attempt++) {
      change = (await stream.next()).find((r) => r.eventName === 'MODIFY' && r.dynamodb?.Keys?.sk?.S === `IDEA#${id}`);
      if (!change) await new Promise((r) => setTimeout(r, 100));
    }
    expect(change, 'a MODIFY record for the idea').toBeDefined();
    expect(change!.dynamodb!.OldImage).toMatchObject({ status: { S: 'new' }, version: { N: '1' } });
    expect(change!.dynamodb!.NewImage).toMatchObject({
      entity: { S: 'Idea' },
      workspace: { S: ws.slug },
      id: { S: id },
      status: { S: 'planned' },
      version: { N: '2' },
    });
  });
});
