/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request and answers as the
 * test says (by default 204), so tests can watch deliveries arrive and make receivers fail.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
}

export type Responder = (request: ReceivedRequest, index: number) => Reply;

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  respondWith(responder: Responder): void;
  /** Resolves once `count` requests (matching `filter`) have arrived. */
  waitForRequests(count: number, options?: { timeoutMs?: number; filter?: (r: ReceivedRequest) => boolean }): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(responder: Responder = () => ({ status: 204 })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let respond = responder;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const request: ReceivedRequest = { method: req.method!, path: req.url!, headers: req.headers, body, json, at: Date.now() };
      requests.push(request);
      const reply = respond(request, requests.length - 1);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body ?? '');
      }, reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    respondWith(next) {
      respond = next;
    },
    async waitForRequests(count, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 20_000);
      const matching = () => requests.filter(options.filter ?? (() => true));
      while (matching().length < count) {
        if (Date.now() > deadline) {
          throw new Error(
            `Expected ${count} webhook request(s), got ${matching().length}: ${JSON.stringify(matching().map((r) => r.json))}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return matching();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verify a request as a Standard Webhooks receiver would; throws on a bad signature. */
export function verifySignature(secret: string, request: ReceivedRequest): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': request.headers['webhook-id'] as string,
    'webhook-timestamp': request.headers['webhook-timestamp'] as string,
    'webhook-signature': request.headers['webhook-signature'] as string,
  });
}

/** Poll `read` until `done` holds for its value; returns that value. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
