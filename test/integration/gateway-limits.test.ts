/**
 * The sandbox refuses a request whose request line and header values pass 10,240 bytes, as API
 * Gateway HTTP APIs do (lib/platform/gateway-answers.ts): a 431 in API Gateway's own shape with
 * its `apigw-requestid`, at exactly that limit, and for a head of any size, never Node's empty
 * answer or a reset (issue 27, item 17). A header value holding a control character is the
 * operation's 400 `invalid_header` in the envelope, but NUL (and a head HTTP cannot parse) API
 * Gateway's own 400, never Node's bare one (issue 37, item 7). Sent over a raw socket, so every byte
 * of the head is the test's own.
 */
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { newWorkspace, sandbox, type TestWorkspace } from '../support/fixtures.ts';

let ws: TestWorkspace;

beforeAll(async () => {
  ws = await newWorkspace('gateway-limits');
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A chunked body's content (RFC 9112 §7.1): each chunk is its size in hex, CRLF, the bytes, CRLF; size 0 ends it. */
function unchunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; ; ) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** Sends the request line and headers as given (Connection: close added) and reads the whole answer. */
function send(requestLine: string, headers: [string, string][]): Promise<RawAnswer> {
  const { hostname, port } = new URL(sandbox.apiUrl);
  const head = `${requestLine}\r\n${[...headers, ['Connection', 'close']].map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // Written, not ended: a client that half-closes gets no answer from Node; `Connection: close` ends the exchange.
    const socket = connect(Number(port), hostname, () => socket.write(head));
    // As an HTTP client does, it closes once the answer is complete (its length, or the last chunk).
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const answer = Buffer.concat(chunks);
      const split = answer.indexOf('\r\n\r\n');
      if (split < 0) return;
      const length = /\r\ncontent-length: (\d+)/i.exec(answer.subarray(0, split).toString('latin1'))?.[1];
      const complete = length ? answer.length >= split + 4 + Number(length) : answer.subarray(split).includes('\r\n0\r\n\r\n');
      if (complete) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks);
      const split = answer.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = answer.subarray(0, split).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const raw = answer.subarray(split + 4);
      const body = (headers['transfer-encoding'] === 'chunked' ? unchunked(raw) : raw).toString('utf8');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

const valueBytes = (requestLine: string, headers: [string, string][]) =>
  Buffer.byteLength(requestLine) + headers.reduce((sum, [, value]) => sum + Buffer.byteLength(value), 0) + Buffer.byteLength('close');

/** `GET /api/v1/me` with the workspace's key, padded by an `X-Padding` header to `total` bytes of request line and values. */
function meRequest(total: number): [string, [string, string][]] {
  const requestLine = `GET ${new URL(sandbox.apiUrl).pathname}/me HTTP/1.1`;
  const headers: [string, string][] = [
    ['Host', new URL(sandbox.apiUrl).host],
    ['X-Service-Workspace-Host', ws.host],
    ['Authorization', `Bearer ${ws.key}`],
  ];
  const padding = total - valueBytes(requestLine, [...headers, ['X-Padding', '']]);
  return [requestLine, [...headers, ['X-Padding', 'p'.repeat(padding)]]];
}

function expectGatewayRefusal(answer: RawAnswer): void {
  expect(answer.status).toBe(431);
  expect(JSON.parse(answer.body)).toEqual({ message: 'Request Header Fields Too Large' });
  expect(answer.headers['apigw-requestid']).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.headers['x-request-id']).toBeUndefined();
}

describe('431: request line and header values past 10,240 bytes', () => {
  it('takes exactly 10,240 bytes and refuses 10,241, as API Gateway does', async () => {
    const [line, headers] = meRequest(10_240);
    expect(valueBytes(line, headers)).toBe(10_240);
    const taken = await send(line, headers);
    expect(taken.status, taken.body).toBe(200);
    expect(JSON.parse(taken.body).data.workspace).toBe(ws.slug);
    expectGatewayRefusal(await send(...meRequest(10_241)));
  });

  it('counts the request line too: a long query string passes the limit alone', async () => {
    const requestLine = `GET ${new URL(sandbox.apiUrl).pathname}/me?q=${'x'.repeat(10_300)} HTTP/1.1`;
    expectGatewayRefusal(await send(requestLine, [['Host', new URL(sandbox.apiUrl).host]]));
  });

  it('counts values, not names: 300 headers whose names alone pass 10,240 bytes are taken', async () => {
    const [line, headers] = meRequest(2_000);
    const many: [string, string][] = Array.from({ length: 300 }, (_, i) => [`X-A-Rather-Long-Header-Name-Number-${i}`, 'v']);
    expect(Buffer.byteLength(many.map(([name]) => name).join(''))).toBeGreaterThan(10_240);
    const answer = await send(line, [...headers, ...many]);
    expect(answer.status, answer.body).toBe(200);
  });

  it('answers a 2 MB header the same way: the 431 with its body and apigw-requestid, not a reset', async () => {
    expectGatewayRefusal(await send(...meRequest(2 * 1024 * 1024)));
  });
});

/** `GET /api/v1/me` with the workspace's key and one more header. */
function meWith(name: string, value: string): [string, [string, string][]] {
  const [line, headers] = meRequest(1_000);
  const others = headers.filter(([header]) => header !== 'X-Padding' && header !== name);
  return [line, [...others, [name, value]]];
}

describe('400: a header value holding a control character (issue 37, item 7)', () => {
  it('is answered by the operation in the envelope, 400 invalid_header naming the header and the character', async () => {
    for (const [name, value, named] of [
      ['X-Trace', 'a\u0001b', 'U+0001'],
      ['User-Agent', 'client\u001F1.0', 'U+001F'],
      ['X-Trace', 'bell\u0007', 'U+0007'],
      ['X-Trace', 'vertical\u000Btab', 'U+000B'],
      ['X-Trace', 'delete\u007F', 'U+007F'],
      ['Authorization', `Bearer ${ws.key}\u0008`, 'U+0008'],
    ] as const) {
      const answer = await send(...meWith(name, value));
      expect([answer.status, answer.headers['content-type']], `${name} ${named}: ${answer.body}`).toEqual([
        400,
        'application/json; charset=utf-8',
      ]);
      const body = JSON.parse(answer.body);
      expect(body, named).toMatchObject({ ok: false, error: 'invalid_header' });
      expect(body.message, named).toContain(named);
      expect(body.issues, named).toEqual([{ path: `header.${name.toLowerCase()}`, message: expect.stringContaining(named) }]);
      expect(answer.headers['x-request-id'], named).toMatch(/.+/);
    }
  });

  it('takes a tab and UTF-8 text in a value (no control character)', async () => {
    for (const [name, value] of [
      ['X-Trace', 'a\tb'],
      ['X-Trace', 'café مرحبا'],
    ] as const) {
      const answer = await send(...meWith(name, value));
      expect(answer.status, `${JSON.stringify(value)}: ${answer.body}`).toBe(200);
    }
  });

  it('is refused by API Gateway itself for NUL (RFC 9110 §5.5), and for a head HTTP cannot parse: its own 400 body, never a bare 400', async () => {
    for (const [line, headers] of [
      meWith('X-Trace', 'a\u0000b'),
      meWith('X-Trace', 'a\rb'),
      [
        `GET ${new URL(sandbox.apiUrl).pathname}/me HTTP/1.1`,
        [
          ['Host', new URL(sandbox.apiUrl).host],
          ['A name with spaces', 'v'],
        ],
      ] as [string, [string, string][]],
    ]) {
      const answer = await send(line, headers);
      expect([answer.status, answer.headers['content-type']], answer.body).toEqual([400, 'application/json']);
      expect(JSON.parse(answer.body)).toEqual({ message: 'Bad Request' });
      expect(answer.headers['apigw-requestid']).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers['x-request-id']).toBeUndefined();
    }
  });
});
