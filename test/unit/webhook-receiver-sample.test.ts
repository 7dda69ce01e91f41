/**
 * The samples a receiver's author copies: `npm run webhook-receiver` rejects (401) what it reports
 * as wrong, and the Python verification in docs/webhooks.md accepts a genuine delivery and refuses forged,
 * tampered, stale and wrong-Bearer ones (run with python3 when the machine has it).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
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

  it('refuses to start with a WEBHOOK_SECRET that is not one (an empty variable), in one line', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/webhook-receiver.ts'], {
      cwd: ROOT,
      env: { ...process.env, WEBHOOK_SECRET: '' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('✖ WEBHOOK_SECRET must be the webhook secret (whsec_…) that POST /webhooks or /rotate showed.\n');
  });

  it('keeps the secret it was started with: PUT /secret is refused', async () => {
    const res = await fetch(url.replace('/hook', '/secret'), {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ secret: newWebhookSecret() }),
    });
    expect(res.status).toBe(409);
    expect((await post(deliveryHeaders(secret, eventId, body))).status).toBe(204);
  });
});

describe('npm run webhook-receiver started before the secret is known', { timeout: 60_000 }, () => {
  let receiver: ChildProcess;
  let origin: string;
  let output = '';

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const { WEBHOOK_SECRET: _, ...environment } = process.env;
    receiver = spawn(process.execPath, ['--import', 'tsx', 'scripts/webhook-receiver.ts'], {
      cwd: ROOT,
      env: { ...environment, RECEIVER_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    receiver.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(() => output.includes('Webhook receiver on'), 'the receiver to start');
  });

  afterAll(() => {
    receiver?.kill();
  });

  const deliver = (key: string) => fetch(`${origin}/hook`, { method: 'POST', headers: deliveryHeaders(key, eventId, body), body });
  const putSecret = (secretToSet: unknown, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
    fetch(`${origin}/secret`, { method: 'PUT', headers, body: JSON.stringify({ secret: secretToSet }) });

  it('says it has no secret yet, and answers 401 to every delivery until it gets one', async () => {
    expect(output).toContain(`no secret yet: it verifies with the one PUT to ${origin}/secret`);
    expect((await deliver(secret)).status).toBe(401);
  });

  it('takes the secret from PUT /secret (JSON, from this machine), then verifies with it', async () => {
    expect((await putSecret(secret)).status).toBe(204);
    expect((await deliver(secret)).status).toBe(204);
    expect((await deliver(newWebhookSecret())).status).toBe(401);
    // A rotation: the next secret replaces it.
    const rotated = newWebhookSecret();
    expect((await putSecret(rotated)).status).toBe(204);
    expect((await deliver(rotated)).status).toBe(204);
    expect((await deliver(secret)).status).toBe(401);
  });

  it('refuses a secret a web page could send: not JSON, another Host, or not a webhook secret', async () => {
    const other = newWebhookSecret();
    // text/plain is what a page may send to another origin without a preflight.
    expect((await putSecret(other, { 'Content-Type': 'text/plain' })).status).toBe(415);
    const rebound = await new Promise<number>((done) => {
      const req = request(
        `${origin}/secret`,
        { method: 'PUT', headers: { Host: 'attacker.example', 'Content-Type': 'application/json' } },
        (res) => done(res.statusCode ?? 0),
      );
      req.end(JSON.stringify({ secret: other }));
    });
    expect(rebound).toBe(403);
    expect((await putSecret('hunter2')).status).toBe(400);
    expect((await deliver(other)).status).toBe(401);
  });
});

describe('npm run webhook-receiver under npm', { timeout: 60_000 }, () => {
  it('frees its port when npm gets SIGTERM (what IDEs and process managers send)', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['run', 'webhook-receiver'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, WEBHOOK_SECRET: secret, RECEIVER_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
      // Its own process group, so that whatever it leaves behind when the test fails is killed with it.
      detached: true,
    });
    let output = '';
    npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await until(() => output.includes('Webhook receiver on'), 'the receiver to start');
      expect(await listening(port)).toBe(true);
      npm.kill('SIGTERM');
      await until(async () => !(await listening(port)), `port ${port} to be free after SIGTERM`, 10_000);
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // The group is gone already: npm passed the signal on and everything exited.
      }
    }
  });
});

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

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
