/**
 * The samples a receiver's author copies: `npm run webhook-receiver` rejects (401) what it reports
 * as wrong, and the Python verification in docs/webhooks.md accepts a genuine delivery and refuses forged,
 * tampered, stale and wrong-Bearer ones (run with python3 when the machine has it).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryHeaders, newWebhookSecret } from '../../lib/webhooks/signing.ts';
import { freePort } from '../../local/wait.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const secret = newWebhookSecret();
const body = JSON.stringify({ type: 'idea.submitted', timestamp: new Date().toISOString(), data: { ideaId: 'i-1', workspace: 'acme' } });
const eventId = 'evt_0sample';

describe('npm run webhook-receiver', { timeout: 60_000 }, () => {
  let receiver: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/hook`;
    // One process (tsx as a loader), so killing it leaves nothing behind.
    receiver = spawn(process.execPath, ['--import', 'tsx', 'scripts/webhook-receiver.ts'], {
      cwd: ROOT,
      env: { ...process.env, WEBHOOK_SECRET: secret, RECEIVER_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((ready) =>
      receiver.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Webhook receiver on') && ready()),
    );
  });

  afterAll(() => {
    receiver?.kill();
  });

  const post = (headers: Record<string, string>, payload = body) => fetch(url, { method: 'POST', headers, body: payload });

  it('answers 204 to a genuine delivery', async () => {
    expect((await post(deliveryHeaders(secret, eventId, body))).status).toBe(204);
  });

  it('answers 401 to a wrong Bearer token, a wrong signature, a tampered body and a stale timestamp', async () => {
    const genuine = deliveryHeaders(secret, eventId, body);
    expect((await post({ ...genuine, Authorization: 'Bearer whsec_wrong' })).status).toBe(401);
    const other = newWebhookSecret();
    expect((await post({ ...deliveryHeaders(other, eventId, body), Authorization: `Bearer ${secret}` })).status).toBe(401);
    expect((await post(genuine, body.replace('i-1', 'i-2'))).status).toBe(401);
    expect((await post(deliveryHeaders(secret, eventId, body, Date.now() - 10 * 60_000))).status).toBe(401);
  });

  it('refuses to start without WEBHOOK_SECRET, in one line', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/webhook-receiver.ts'], {
      cwd: ROOT,
      env: { ...process.env, WEBHOOK_SECRET: '' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Set WEBHOOK_SECRET');
  });
});

const python = spawnSync('python3', ['--version']).status === 0;

// Each check starts python3: seconds on a busy machine.
describe.runIf(python)("docs/webhooks.md's Python verification (standard library only)", { timeout: 60_000 }, () => {
  const snippet = /```python\n([\s\S]*?)```/.exec(readFileSync(resolve(ROOT, 'docs/webhooks.md'), 'utf8'))![1]!;

  function verify(headers: Record<string, string>, payload = body): boolean {
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const program = `${snippet}
import json, sys
given = json.load(sys.stdin)
print(is_genuine(given["secret"], given["headers"], given["body"].encode()))
`;
    const run = spawnSync('python3', ['-I', '-c', program], {
      input: JSON.stringify({ secret, headers: lower, body: payload }),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    return run.stdout.trim() === 'True';
  }

  it('accepts a genuine delivery', () => {
    expect(verify(deliveryHeaders(secret, eventId, body))).toBe(true);
  });

  it('refuses a wrong Bearer, another secret, a tampered body, and a timestamp more than 5 minutes off', () => {
    const genuine = deliveryHeaders(secret, eventId, body);
    expect(verify({ ...genuine, Authorization: 'Bearer whsec_wrong' })).toBe(false);
    expect(verify({ ...deliveryHeaders(newWebhookSecret(), eventId, body), Authorization: `Bearer ${secret}` })).toBe(false);
    expect(verify(genuine, body.replace('i-1', 'i-2'))).toBe(false);
    expect(verify(deliveryHeaders(secret, eventId, body, Date.now() - 6 * 60_000))).toBe(false);
    expect(verify(deliveryHeaders(secret, eventId, body, Date.now() + 6 * 60_000))).toBe(false);
    expect(verify(deliveryHeaders(secret, eventId, body, Date.now() - 4 * 60_000))).toBe(true);
  });
});
