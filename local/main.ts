/**
 * `npm start`: the sandbox with data kept under DATA_DIR. On first start it creates workspace
 * `your-workspace` and prints, once, a key holding every permission.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { createDeveloperKey } from '../lib/admin/developer-keys.ts';
import { SANDBOX_DEFAULTS, type SandboxNeed, sandboxVariables } from '../lib/admin/sandbox-identity.ts';
import { createWorkspace, findWorkspace, setIdeaLabels } from '../lib/admin/workspaces.ts';
import { config } from '../lib/platform/config.ts';
import { PERMISSIONS } from '../lib/platform/permissions.ts';
import { type Sandbox, startSandbox } from './sandbox.ts';

const WORKSPACE = 'your-workspace';
const started = performance.now();

/**
 * npm forwards SIGINT and SIGTERM to the process its script runs as, and nothing else (a SIGHUP
 * kills npm alone). The start script is `exec node …` so that process is this one: without the
 * `exec`, it is the `sh -c` npm starts, and dash catches SIGINT while waiting for its child and
 * passes nothing on, so `kill -INT <npm>` did nothing. So that whatever kills npm (or a shell still
 * between us) stops the sandbox too, we watch the parent, and the grandparent when the parent is a
 * shell (npm before the `exec`, or a wrapper script).
 */
function watchAncestors(onGone: () => void): void {
  const parent = process.ppid;
  const ancestors = [parent];
  const ps = (field: string, pid: number) => spawnSync('ps', ['-o', `${field}=`, '-p', String(pid)], { encoding: 'utf8' }).stdout?.trim();
  if (/^-?(sh|dash|bash|zsh)$/.test(ps('comm', parent) ?? '')) {
    const grandparent = Number(ps('ppid', parent));
    if (Number.isInteger(grandparent) && grandparent > 1) ancestors.push(grandparent);
  }
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  };
  setInterval(() => {
    if (process.ppid !== parent || !ancestors.every(alive)) onGone();
  }, 500).unref();
}

function port(name: string, fallback: number): number {
  return config.integer(name, fallback, 0);
}

let stopSandbox: (() => Promise<void>) | undefined;
let shuttingDown = false;
async function shutdown(reason: string, exitCode: number) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`\n${reason}: stopping the sandbox…`);
  await stopSandbox?.();
  process.exit(exitCode);
}
// What IDEs and process managers send (SIGTERM, SIGHUP) stops everything exactly as Ctrl-C does.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal, 0));
watchAncestors(() => void shutdown('npm start was stopped', 0));

let sandbox: Sandbox;
try {
  sandbox = await startSandbox({
    port: port('PORT', 3000),
    dynamodbPort: port('DYNAMODB_PORT', 8000),
    sqsPort: port('SQS_PORT', 4566),
    dataDir: process.env.DATA_DIR ?? '.data',
    // Another table in the same DynamoDB Local, e.g. a restored copy (cxctl backup restore --to NAME).
    tableName: process.env.TABLE_NAME || undefined,
    log: (line) => console.log(line),
    onStarting: (stop) => {
      stopSandbox = stop;
    },
    onFatal: (description) => {
      console.error(`\n✖ ${description}. Every request would fail from now on, so the sandbox stops. Start it again with npm start.`);
      void shutdown('DynamoDB Local is gone', 1);
    },
  });
} catch (error) {
  // A taken port or a missing Java is the user's to fix: one line, no stack trace.
  console.error(`✖ ${(error as Error).message}`);
  process.exit(1);
}
stopSandbox = sandbox.stop;

const host = `${WORKSPACE}.${config.workspaceDomain()}`;
// Every command the banner suggests names each variable it needs that npm start was given otherwise
// than its default (the table's among them), so it reaches this sandbox as copied, from any shell.
const variables = (needs: SandboxNeed[]) =>
  sandboxVariables({ ...sandbox, dataDir: resolve(process.env.DATA_DIR ?? SANDBOX_DEFAULTS.DATA_DIR) }, needs);
const newKeyCommand = `${variables(['table'])}npx cxctl key create --workspace ${WORKSPACE} --all`;
console.log(`\nSandbox ready in ${Math.round(performance.now() - started)} ms`);
console.log(`  API          ${sandbox.apiUrl}   (OpenAPI: ${sandbox.apiUrl}/openapi.json)`);
console.log(`  Reference    ${sandbox.apiUrl}/docs   (every operation, its permissions, errors and examples)`);
console.log(`  DynamoDB     ${sandbox.dynamodbEndpoint}   table ${sandbox.tableName}   (DynamoDB Local pid ${sandbox.dynamodbPid})`);
console.log(`  SQS          ${sandbox.sqsEndpoint}   webhook deliveries ${sandbox.queues.webhookDeliveries}`);
console.log(`               (dead letters ${sandbox.queues.webhookDeadLetters})`);

if (!(await findWorkspace(sandbox.store, WORKSPACE))) {
  await createWorkspace(sandbox.store, WORKSPACE, 'Your workspace');
  await setIdeaLabels(sandbox.store, WORKSPACE, {
    statuses: ['new', 'under_review', 'planned', 'in_progress', 'done', 'declined'],
    modules: ['general', 'billing', 'mobile-app', 'website'],
  });
  const key = await createDeveloperKey(sandbox.store, {
    workspace: WORKSPACE,
    name: 'Sandbox key (all permissions)',
    permissions: [...PERMISSIONS],
    rateLimitPerMinute: config.defaultRateLimitPerMinute(),
  });
  console.log(`\nCreated workspace "${WORKSPACE}" and a key with every permission. It is shown only this once:\n`);
  console.log(`  ${key.key}\n`);
  console.log('Try it:\n');
  console.log(
    `  curl -s ${sandbox.apiUrl}/me \\\n    -H 'X-Service-Workspace-Host: ${host}' \\\n    -H 'Authorization: Bearer ${key.key}'\n`,
  );
  console.log(`Lost the key? ${newKeyCommand}\n`);
} else {
  console.log(`\nWorkspace "${WORKSPACE}" already exists (its first key was printed on the first start).`);
  console.log(`Make another: ${newKeyCommand}\n`);
}
console.log('Demo data (ideas, journeys, a survey with responses, SOPs, a help centre in English and Arabic):\n');
console.log(`  ${variables(['api', 'table'])}npx cxctl demo ${WORKSPACE}\n`);
console.log('Ctrl-C stops everything.');
