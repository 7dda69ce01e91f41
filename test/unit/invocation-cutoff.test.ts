/**
 * A timed-out invocation sends nothing more (local/invocation-cutoff.ts), as Lambda stops a function
 * at its timeout: its request in flight is cut and its later ones never reach the service, whether
 * an SDK client's (DynamoDB here; SQS and S3 share the transport), an outbound POST's or fetch's.
 * Only that invocation's: another one running at the same time on the same shared client goes on.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../lib/platform/outbound/http-post.ts';
import { runUntilCutOff } from '../../local/invocation-cutoff.ts';
import { FunctionTimeoutError, invokeWithTimeout } from '../../local/lambda-runtime.ts';

/** What reached the service, by the name each request carries; a request named `hold…` is answered only when released. */
let received: string[] = [];
const arrivals = new Map<string, () => void>();
/** Resolves once a request named `name` has reached the service. */
const arrival = (name: string) => new Promise<void>((resolve) => arrivals.set(name, resolve));
let release: () => void = () => undefined;
let held = new Promise<void>((resolve) => (release = resolve));
let server: Server;
let endpoint: string;
/** One client for every invocation, as a handler module's client is shared by the invocations of its process. */
let client: DynamoDBClient;

function nameOf(req: IncomingMessage, body: string): string {
  if (req.headers['x-amz-target']) return (JSON.parse(body) as { Item: { pk: { S: string } } }).Item.pk.S;
  return req.headers['x-name'] as string;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', async () => {
      const name = nameOf(req, body);
      received.push(name);
      arrivals.get(name)?.();
      if (name.startsWith('hold')) await held;
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});

afterAll(async () => {
  client.destroy();
  release();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const put = (name: string) => client.send(new PutItemCommand({ TableName: 'cutoff', Item: { pk: { S: name } } }));
const post = (name: string) => postJson(`${endpoint}/hook`, '{}', { 'x-name': name }, { allowPrivateNetworks: true, allowHttp: true });

async function timedOut(invocation: Promise<unknown>): Promise<void> {
  const error = await invocation.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FunctionTimeoutError);
}

describe('a timed-out invocation', () => {
  it("cuts its DynamoDB write in flight and never sends the next, while another invocation's writes on the same client go on", async () => {
    received = [];
    held = new Promise<void>((resolve) => (release = resolve));
    const writer = async () => {
      await put('hold-first'); // answered only after the timeout: in flight when it strikes
      await put('second'); // Lambda would have stopped the function before this
      return 'done';
    };
    const other = async () => {
      for (const n of [1, 2, 3]) await put(`other-${n}`);
      return 'other done';
    };
    // The timeout strikes once the first write has reached the service (invokeWithTimeout aborts this signal at its timer).
    const timeout = new AbortController();
    const cut: string[] = [];
    const writing = runUntilCutOff(timeout.signal, writer, (request) => cut.push(request));
    const others = runUntilCutOff(new AbortController().signal, other);
    await arrival('hold-first');
    timeout.abort(new Error('Task timed out after 0.30 seconds'));
    await expect(writing).rejects.toMatchObject({ name: 'InvocationCutOffError' });
    release();
    expect(await others).toBe('other done');
    expect(received.sort()).toEqual(['hold-first', 'other-1', 'other-2', 'other-3']);
    expect(cut).toEqual(['DynamoDB PutItem']);
  });

  it('sends none of its outbound POSTs or fetches after the timeout', async () => {
    received = [];
    let timedOutAlready: () => void = () => undefined;
    const struck = new Promise<void>((resolve) => (timedOutAlready = resolve));
    const outcomes: unknown[] = [];
    let finished: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finished = resolve));
    // What runs on past the timeout: work the handler did not await (middy leaves its handler so when it answers early).
    const notifier = async () => {
      try {
        await struck;
        outcomes.push(await post('webhook-after'));
        outcomes.push(await fetch(`${endpoint}/api`, { headers: { 'x-name': 'fetch-after' } }).catch((error: unknown) => error));
        outcomes.push(await put('write-after').catch((error: unknown) => error));
      } finally {
        finished();
      }
    };
    const cut: string[] = [];
    await timedOut(invokeWithTimeout(notifier, {}, 'notifier', 0.1, (request) => cut.push(request)));
    timedOutAlready();
    await done;
    expect(received).toEqual([]);
    expect(cut).toEqual([`POST 127.0.0.1/hook`, `fetch ${endpoint}/api`, 'DynamoDB PutItem']);
    expect(outcomes).toMatchObject([{ ok: false, status: null }, { name: 'InvocationCutOffError' }, { name: 'InvocationCutOffError' }]);
  });

  it('leaves requests outside any invocation alone', async () => {
    received = [];
    await put('outside');
    expect(received).toEqual(['outside']);
  });
});
