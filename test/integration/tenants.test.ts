/**
 * Tenants (issue 41), against the sandbox over HTTP and with cxctl as an operator runs it: a
 * workspace's request budget across all its keys (429 `workspace_rate_limited` before any
 * operation runs, RateLimit-* headers of the tighter limit, exact with one shard), and its usage
 * (GET /usage and `cxctl usage` agree on a workload this test drives: requests exact, units equal).
 */
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { setRequestBudget } from '../../lib/admin/workspaces.ts';
import { DEFAULT_PERMISSIONS } from '../../lib/platform/permissions.ts';
import {
  adminStore,
  call,
  dynamoDbCalls,
  dynamoDbDepth,
  expectErrorEnvelope,
  newKey,
  newWorkspace,
  type TestWorkspace,
} from '../support/fixtures.ts';
import { cxctl } from '../support/operator.ts';

/**
 * Wait until two windows of `windowMs` (a budget's) went by without the workspace's requests (so the
 * window before counts nothing), then until a window starts with at least `seconds` of it left.
 */
async function quietBudgetWindow(windowMs: number, seconds: number): Promise<void> {
  await new Promise((r) => setTimeout(r, 2 * windowMs));
  const left = windowMs - (Date.now() % windowMs);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

describe('a workspace budget across all its keys', () => {
  let ws: TestWorkspace;
  let keys: string[];

  beforeAll(async () => {
    ws = await newWorkspace('budget');
    keys = [
      ws.key,
      ...(await Promise.all(Array.from({ length: 3 }, async () => (await newKey(ws.slug, ['ideas:read', 'ideas:write'])).key))),
    ];
  });

  it('is set and shown by cxctl, and counts from the very next request', async () => {
    const set = await cxctl(['workspace', 'set-limit', ws.slug, '--requests-per-second', '5', '--burst', '10', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ slug: ws.slug, requestBudget: { requestsPerSecond: 5, burst: 10 } });
    const listed = await cxctl(['workspace', 'list']);
    expect(listed.stdout.split('\n').find((line) => line.startsWith(`${ws.slug} `))).toContain('limit: 5/s, bursts of 10');
    const refused = await cxctl(['workspace', 'set-limit', ws.slug, '--requests-per-second', '5', '--burst', '2']);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('burst')]);
  }, 120_000);

  it('admits exactly its burst of concurrent requests through several keys, and answers the rest 429 before any operation runs', async () => {
    await setRequestBudget(adminStore(), ws.slug, { requestsPerSecond: 2, burst: 4 });
    const before = (await call('GET', '/ideas?limit=1', { host: ws.host, key: ws.key })).body.pagination.total;
    // A 2 s window (4 at 2 a second) with nothing counted in the one before, so it has room for 4.
    await quietBudgetWindow(2000, 1.5);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call('POST', '/ideas', { host: ws.host, key: keys[i % keys.length], body: { title: `Burst ${i}` } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    // One shard (2 a second is under 250): the count is exact, whatever the keys.
    expect(statuses.filter((s) => s === 201)).toHaveLength(4);
    expect(statuses.filter((s) => s !== 201)).toEqual(Array(8).fill(429));
    for (const refused of answers.filter((a) => a.status === 429)) {
      expectErrorEnvelope(refused, 429, 'workspace_rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect([refused.headers.get('ratelimit-limit'), refused.headers.get('ratelimit-remaining')]).toEqual(['4', '0']);
      expect(refused.headers.get('ratelimit-policy')).toContain('4;w=2;name="workspace"');
    }
    // Nothing was written for them.
    await quietBudgetWindow(2000, 1);
    const after = await call('GET', '/ideas?limit=1', { host: ws.host, key: ws.key });
    expect(after.body.pagination.total).toBe(before + 4);
  }, 120_000);

  it('refuses a request the read already finds over, with no write at all: one call, one round trip', async () => {
    await setRequestBudget(adminStore(), ws.slug, { requestsPerSecond: 1, burst: 1 });
    await quietBudgetWindow(1000, 0.8);
    // The first takes the window's one request; the next reads the shard spent and is refused there.
    const first = await call('GET', '/me', { host: ws.host, key: keys[1] });
    const refused = await call('GET', '/ideas', { host: ws.host, key: keys[2] });
    expect(first.status).toBe(200);
    expectErrorEnvelope(refused, 429, 'workspace_rate_limited');
    expect([dynamoDbCalls(refused), dynamoDbDepth(refused)]).toEqual([1, 1]);
    // The order of checks still holds: a bad key is 401 whatever the budget.
    expectErrorEnvelope(await call('GET', '/ideas', { host: ws.host, key: `${keys[2]!.slice(0, -6)}AAAAAA` }), 401, 'invalid_key');
  }, 60_000);

  it('describes the tighter limit in RateLimit-*, and names both in RateLimit-Policy', async () => {
    await setRequestBudget(adminStore(), ws.slug, { requestsPerSecond: 1000, burst: 1000 });
    const tight = await newKey(ws.slug, ['ideas:read'], { rateLimitPerMinute: 3 });
    const keyTighter = await call('GET', '/ideas?limit=1', { host: ws.host, key: tight.key });
    expect([keyTighter.headers.get('ratelimit-limit'), keyTighter.headers.get('ratelimit-remaining')]).toEqual(['3', '2']);
    expect(keyTighter.headers.get('ratelimit-policy')).toBe('3;w=60;name="key", 1000;w=1;name="workspace"');
    await setRequestBudget(adminStore(), ws.slug, { requestsPerSecond: 2, burst: 2 });
    await quietBudgetWindow(1000, 0.8);
    const budgetTighter = await call('GET', '/ideas?limit=1', { host: ws.host, key: ws.key });
    expect(budgetTighter.status, budgetTighter.text).toBe(200);
    expect([budgetTighter.headers.get('ratelimit-limit'), budgetTighter.headers.get('ratelimit-remaining')]).toEqual(['2', '1']);
    await setRequestBudget(adminStore(), ws.slug, null);
  }, 60_000);
});

describe('usage per workspace', () => {
  let ws: TestWorkspace;
  /** Every request this test sends to the workspace with a valid key, by operation and status. */
  const sent = new Map<string, number>();

  const send = async (operationId: string, method: string, path: string, options: { body?: unknown; key?: string } = {}) => {
    const res = await call(method, path, { host: ws.host, key: options.key ?? ws.key, body: options.body });
    const id = `${operationId} ${Math.floor(res.status / 100)}xx`;
    sent.set(id, (sent.get(id) ?? 0) + 1);
    return res;
  };

  beforeAll(async () => {
    ws = await newWorkspace('usage');
  });

  it('is read by no key unless given usage:read, which no default holds', async () => {
    expect(DEFAULT_PERMISSIONS).not.toContain('usage:read');
    const reader = await newKey(ws.slug, [...DEFAULT_PERMISSIONS]);
    expectErrorEnvelope(await send('getUsage', 'GET', '/usage', { key: reader.key }), 403, 'missing_permission');
    expectErrorEnvelope(await send('getUsage', 'GET', '/usage?from=2026-01-02&to=2026-01-01', {}), 400, 'invalid_query');
    expectErrorEnvelope(await send('getUsage', 'GET', '/usage?from=2026-01-01&to=2026-03-01&granularity=hour', {}), 400, 'invalid_query');
  });

  it('answers what the workspace used, and cxctl usage agrees: requests exact, units equal', async () => {
    for (let i = 0; i < 3; i++) expect((await send('getMe', 'GET', '/me')).status).toBe(200);
    const created = await send('createIdea', 'POST', '/ideas', { body: { title: 'Counted' } });
    expect(created.status).toBe(201);
    expect((await send('getIdea', 'GET', `/ideas/${created.body.data.id}`)).status).toBe(200);
    expect((await send('getIdea', 'GET', '/ideas/nothing-here')).status).toBe(404);
    const started = new Date(Date.now() - 3_600_000).toISOString();

    const res = await send('getUsage', 'GET', `/usage?from=${started}`);
    expect(res.status, res.text).toBe(200);
    const { usage } = res.body;
    // Every request before this one, whatever it answered (this one is counted once it has answered).
    const before = [...sent].filter(([id]) => !id.startsWith('getUsage 2')).reduce((sum, [, n]) => sum + n, 0);
    expect(usage.totals.requests).toBe(before);
    expect(usage.operations.getMe).toMatchObject({ requests: 3, byStatusClass: { '2xx': 3, '4xx': 0 } });
    expect(usage.operations.createIdea.byStatusClass['2xx']).toBe(1);
    expect(usage.operations.getIdea.byStatusClass).toMatchObject({ '2xx': 1, '4xx': 1 });
    expect(usage.operations.getUsage.byStatusClass).toMatchObject({ '4xx': 3 });
    // DynamoDB's own figures: every authenticated request reads the workspace copy and the key (a unit each).
    expect(usage.totals.capacityUnits.read).toBeGreaterThanOrEqual(2 * before);
    expect(usage.operations.createIdea.capacityUnits.write).toBeGreaterThan(2);
    expect(usage.totals.estimatedCostUsd).toBeGreaterThan(0);
    expect(usage.periods.reduce((sum: number, p: { requests: number }) => sum + p.requests, 0)).toBe(usage.totals.requests);

    // The operator's read of the same hours. The usage read itself is left out of the comparison: it
    // is counted once it has answered, and another request's write may or may not have written it yet.
    const operator = await cxctl(['usage', ws.slug, '--from', started, '--to', usage.to, '--json']);
    expect(operator.code, operator.stderr).toBe(0);
    const report = JSON.parse(operator.stdout);
    const withoutUsageReads = (r: typeof usage) => {
      const { getUsage: reads, ...operations } = r.operations;
      return {
        requests: r.totals.requests - reads.requests,
        read: r.totals.capacityUnits.read - reads.capacityUnits.read,
        write: r.totals.capacityUnits.write - reads.capacityUnits.write,
        operations,
      };
    };
    expect(withoutUsageReads(report)).toEqual(withoutUsageReads(usage));
  }, 120_000);

  it('lists every workspace by cost with --all, and writes a CSV a spreadsheet reads safely', async () => {
    const all = await cxctl(['usage', '--all', '--json']);
    expect(all.code, all.stderr).toBe(0);
    const reports: { workspace: string; totals: { estimatedCostUsd: number } }[] = JSON.parse(all.stdout);
    expect(reports.map((r) => r.workspace)).toContain(ws.slug);
    const costs = reports.map((r) => r.totals.estimatedCostUsd);
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    const csv = await cxctl(['usage', ws.slug, '--csv']);
    const rows: Record<string, string>[] = parse(csv.stdout, { columns: true });
    const total = rows.find((row) => row.period === 'total');
    expect(total?.workspace).toBe(ws.slug);
    expect(Number(total?.requests)).toBeGreaterThan(0);
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@]/);
  }, 120_000);
});
