/**
 * `npm run bench:recovery`: a recovery of 10,000 held deliveries (`BENCH_RECOVERY_DELIVERIES`) with a
 * crash half-way (issue 40 item 6), on `npm start` as a user runs it, against a local receiver that
 * answers 204 at once. It prints the total time, deliveries per second and DynamoDB units per delivery.
 *
 *   1. A sandbox of its own (a fresh DATA_DIR) that logs the capacity units of every invocation
 *      (SANDBOX_COST_LOG, local/consumed-capacity.ts), the recovery steps' included.
 *   2. A webhook created, enabled (its receiver verified), then disabled; 10,000 held deliveries of
 *      `idea.submitted` written straight into the sandbox's table through the store's own write
 *      (store/deliveries.ts `recordNewDelivery`, as the table-stream reader records a disabled
 *      webhook's events): creating 10,000 ideas through the API would time the fan-out, not the recovery.
 *   3. Enabled, then `POST /webhooks/{id}/recover`; once the receiver has half of them, the whole
 *      sandbox (npm, node, DynamoDB Local's JVM) is killed with SIGKILL, as the recovery test does
 *      (test/integration/webhook-nothing-lost.test.ts), started again on the same DATA_DIR, and the
 *      recovery waited for until `done`.
 * Units: a killed step never logs what it consumed (it logs as it ends), so units per delivery are
 * those of the steps after the restart over the deliveries they sent; the whole run's logged units
 * over every delivery are printed beside it (a lower bound: the killed step's are missing).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeveloperKey } from '../lib/admin/developer-keys.ts';
import { createLocalTableClient } from '../lib/admin/table-client.ts';
import { createWorkspace } from '../lib/admin/workspaces.ts';
import { PERMISSIONS } from '../lib/platform/permissions.ts';
import { type SandboxProcess, startSandboxProcess, until } from '../test/support/sandbox-process.ts';
import { startReceiver } from '../test/support/webhook-receiver.ts';

const DELIVERIES = Number(process.env.BENCH_RECOVERY_DELIVERIES ?? 10_000);
const WORKSPACE = 'bench-recovery';
const TABLE = 'cx-portal';
/** The recovery queue's consumer, as the sandbox names it in the cost log (local/sandbox.ts). */
const RECOVERY_FUNCTION = 'runWebhookRecoveries';
/** Held deliveries written at once while seeding. */
const SEED_AT_ONCE = 25;

/** The few fields of the API's answers the bench reads. */
interface Answer {
  webhook: { id: string };
  recovery: { id: string; status: string; queued: number; delivered: number; failed: number };
}

interface CostLine {
  operationId: string;
  readUnits: number;
  writeUnits: number;
}

const dataDir = mkdtempSync(join(tmpdir(), 'cx-bench-recovery-'));
const costLog = join(dataDir, 'costs.jsonl');
writeFileSync(costLog, '');
const env = { SANDBOX_COST_LOG: costLog };
const costLines = (): CostLine[] =>
  readFileSync(costLog, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CostLine);
const seconds = (ms: number) => (ms / 1000).toFixed(1);

let sandbox: SandboxProcess = await startSandboxProcess(dataDir, { env, killable: true });
const receiver = await startReceiver(() => ({ status: 204 }));
try {
  const admin = createLocalTableClient(TABLE, sandbox.dynamodbEndpoint);
  await createWorkspace(admin, WORKSPACE);
  const { key } = await createDeveloperKey(admin, { workspace: WORKSPACE, permissions: [...PERMISSIONS], rateLimitPerMinute: 60_000 });
  const api = async <T = Answer>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${sandbox.apiUrl}${path}`, {
      method,
      headers: { 'X-Service-Workspace-Host': `${WORKSPACE}.localhost`, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await res.json()) as T;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };

  const { webhook } = await api('POST', '/webhooks', { name: 'Recovery bench', url: receiver.url, events: ['idea.submitted'] });
  await api('POST', `/webhooks/${webhook.id}/enable`);
  await api('POST', `/webhooks/${webhook.id}/disable`);

  // The store's write, on a client of the sandbox's table (lib/platform/data/client.ts reads these at import).
  Object.assign(process.env, {
    TABLE_NAME: TABLE,
    AWS_ENDPOINT_URL_DYNAMODB: sandbox.dynamodbEndpoint,
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? 'local',
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
  });
  const { recordNewDelivery } = await import('../lib/webhooks/store/deliveries.ts');
  const seedStart = Date.now();
  const second = Math.floor(seedStart / 1000)
    .toString(36)
    .padStart(7, '0');
  const timestamp = new Date(seedStart).toISOString();
  // Event ids as events.ts `eventIdOf` makes them: the second, a stream sequence number, a short hash.
  const eventId = (i: number) =>
    `evt_${second}${i.toString(36).padStart(26, '0')}${(i * 2654435761).toString(16).slice(-6).padStart(6, '0')}`;
  for (let i = 0; i < DELIVERIES; i += SEED_AT_ONCE) {
    await Promise.all(
      Array.from({ length: Math.min(SEED_AT_ONCE, DELIVERIES - i) }, (_, j) => {
        const event = { id: eventId(i + j), type: 'idea.submitted' as const, timestamp };
        const payload = JSON.stringify({ type: event.type, timestamp, data: { ideaId: `idea_${i + j}`, workspace: WORKSPACE } });
        return recordNewDelivery(WORKSPACE, webhook.id, event, payload, 'held');
      }),
    );
  }
  const seedMs = Date.now() - seedStart;
  console.log(`Seeded ${DELIVERIES} held deliveries in ${seconds(seedMs)} s`);

  await api('POST', `/webhooks/${webhook.id}/enable`);
  const mine = () => receiver.requests.filter((r) => r.json?.type === 'idea.submitted');
  const distinct = () => new Set(mine().map((r) => r.headers['webhook-id'])).size;

  const started = Date.now();
  const { recovery } = await api('POST', `/webhooks/${webhook.id}/recover`, { since: new Date(seedStart - 1000).toISOString() });
  const path = `/webhooks/${webhook.id}/recoveries/${recovery.id}`;
  await until(distinct, (n) => n >= DELIVERIES / 2, 'half of the deliveries', 1_800_000);
  await sandbox.kill();
  const killedAt = Date.now();
  const sentBeforeKill = mine().length;
  const linesBeforeKill = costLines().length;

  sandbox = await startSandboxProcess(dataDir, { env, killable: true });
  const restartedAt = Date.now();
  await until(
    () => mine().length,
    (n) => n > sentBeforeKill,
    'the recovery to resume',
    300_000,
  );
  const resumedAt = Date.now();
  const done = await until(
    () => api('GET', path),
    (read) => ['done', 'stopped'].includes(read.recovery.status),
    'the recovery to finish',
    3_600_000,
  );
  const finishedAt = Date.now();

  const requests = mine();
  const ids = requests.map((r) => r.headers['webhook-id'] as string);
  const firsts = ids.filter((id, i) => ids.indexOf(id) === i);
  const inOrder = firsts.every((id, i) => i === 0 || firsts[i - 1]! < id);
  const sentAfterRestart = requests.length - sentBeforeKill;
  const lines = costLines();
  const units = (from: CostLine[]) => {
    const steps = from.filter((l) => l.operationId === RECOVERY_FUNCTION);
    return { read: steps.reduce((s, l) => s + l.readUnits, 0), write: steps.reduce((s, l) => s + l.writeUnits, 0) };
  };
  const after = units(lines.slice(linesBeforeKill));
  const whole = units(lines);
  const totalMs = finishedAt - started;
  const sendingMs = killedAt - started + (finishedAt - resumedAt);

  console.log(`\nRecovery of ${DELIVERIES} held deliveries, killed (SIGKILL, whole sandbox) half-way and resumed`);
  console.log(
    `  recovery: ${JSON.stringify({ status: done.recovery.status, queued: done.recovery.queued, delivered: done.recovery.delivered, failed: done.recovery.failed })}`,
  );
  console.log(
    `  received: ${requests.length} requests, ${firsts.length} distinct webhook-ids, ${requests.length - firsts.length} repeated; in event order: ${inOrder}`,
  );
  console.log(
    `  killed after ${sentBeforeKill} requests, ${seconds(killedAt - started)} s in; sandbox up again in ${seconds(restartedAt - killedAt)} s; sending again ${seconds(resumedAt - restartedAt)} s after that (the dead step's message comes back when its visibility ends)`,
  );
  console.log(`  total time: ${seconds(totalMs)} s (POST recover to done, the crash included); sending: ${seconds(sendingMs)} s`);
  console.log(
    `  deliveries per second: ${(DELIVERIES / (totalMs / 1000)).toFixed(1)} overall, ${(DELIVERIES / (sendingMs / 1000)).toFixed(1)} while sending`,
  );
  console.log(
    `  DynamoDB units per delivery (the steps after the restart, ${sentAfterRestart} deliveries): ${(after.read / sentAfterRestart).toFixed(2)} read, ${(after.write / sentAfterRestart).toFixed(2)} write`,
  );
  console.log(
    `  the whole run's logged units over ${DELIVERIES} deliveries (the killed step's missing): ${(whole.read / DELIVERIES).toFixed(2)} read, ${(whole.write / DELIVERIES).toFixed(2)} write`,
  );
  console.log(
    `  machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  if (done.recovery.status !== 'done' || firsts.length !== DELIVERIES || !inOrder || requests.length - firsts.length > 1) {
    process.exitCode = 1;
    console.error('✖ The recovery did not deliver every held delivery once, in order, with at most the one in flight at the kill repeated');
  }
} finally {
  await receiver.close();
  await sandbox.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
