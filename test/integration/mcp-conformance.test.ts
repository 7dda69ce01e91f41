/**
 * MCP's official conformance suite (@modelcontextprotocol/conformance, its server scenarios) against
 * the sandbox's `POST /api/v1/mcp`, as issue 42 asks. The suite cannot send headers, so a small local
 * proxy adds what any client of ours sends: the key and the workspace host. The suite's own verdict
 * decides: it fails on a scenario that fails and is not in the baseline, and on one in the baseline
 * that now passes (a stale entry), so the baseline is exactly the scenarios this server does not pass.
 * Each is listed with why in docs/mcp.md ("Conformance"); most test features of the suite's reference
 * server (its own `test_*` tools, prompts and resources, logging, completion, subscriptions, SSE).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWorkspace, sandbox, type TestWorkspace } from '../support/fixtures.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const BASELINE = join(ROOT, 'test/support/mcp-conformance-expected-failures.yml');

let ws: TestWorkspace;
let proxy: Server;
let proxyUrl: string;
const outputDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));

/** Forwards /mcp to the sandbox's MCP server with the key and workspace host; the body and every other header as sent. */
function startProxy(): Promise<Server> {
  const target = new URL(`${sandbox.apiUrl}/mcp`);
  const server = createServer((incoming, outgoing) => {
    const { host: _, ...headers } = incoming.headers;
    const forwarded = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: `${target.pathname}${incoming.url?.replace(/^\/mcp/, '') ?? ''}`,
        method: incoming.method,
        headers: { ...headers, authorization: `Bearer ${ws.key}`, 'x-service-workspace-host': ws.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(String(error));
    });
    incoming.pipe(forwarded);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

beforeAll(async () => {
  ws = await newWorkspace('conformance');
  proxy = await startProxy();
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise((done) => proxy?.close(done));
  rmSync(outputDir, { recursive: true, force: true });
});

describe('the MCP conformance suite, server scenarios', () => {
  it('passes every scenario but the baseline, and every one of the baseline still fails', async () => {
    // The pinned Node 24 that runs the tests (the suite needs fs.globSync, Node 22 and later).
    const result = await promisify(execFile)(
      process.execPath,
      [SUITE, 'server', '--url', proxyUrl, '--expected-failures', BASELINE, '--output-dir', outputDir],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
    ).catch((error: { code: number; stdout: string; stderr: string }) => error);
    const printed = `${result.stdout}\n${result.stderr}`;
    expect('code' in result ? result.code : 0, printed).toBe(0);
    expect(printed).toContain('Baseline check passed: all failures are expected.');
    // What this server offers passes: the handshake, ping, and listing its tools, resources and prompts.
    const baseline = readFileSync(BASELINE, 'utf8');
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list']) {
      expect(baseline, `${scenario} is expected to pass`).not.toMatch(new RegExp(`^\\s*-\\s*${scenario}\\s*(#.*)?$`, 'm'));
    }
  }, 300_000);
});
