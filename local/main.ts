/**
 * `npm start`: the sandbox with data kept under DATA_DIR. On first start it creates workspace
 * `your-workspace` and prints, once, a key holding every permission.
 */
import { createDeveloperKey } from '../lib/admin/developer-keys.ts';
import { createWorkspace, findWorkspace, setIdeaLabels } from '../lib/admin/workspaces.ts';
import { config } from '../lib/platform/config.ts';
import { PERMISSIONS } from '../lib/platform/permissions.ts';
import { startSandbox } from './sandbox.ts';

const WORKSPACE = 'your-workspace';
const started = performance.now();

function port(name: string, fallback: number): number {
  return config.integer(name, fallback, 0);
}

const sandbox = await startSandbox({
  port: port('PORT', 3000),
  dynamodbPort: port('DYNAMODB_PORT', 8000),
  sqsPort: port('SQS_PORT', 4566),
  dataDir: process.env.DATA_DIR ?? '.data',
  log: (line) => console.log(line),
});

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`\n${signal}: stopping the sandbox…`);
  await sandbox.stop();
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal));

const host = `${WORKSPACE}.${config.workspaceDomain()}`;
console.log(`\nSandbox ready in ${Math.round(performance.now() - started)} ms`);
console.log(`  API          ${sandbox.apiUrl}   (OpenAPI: ${sandbox.apiUrl}/openapi.json)`);
console.log(`  DynamoDB     ${sandbox.dynamodbEndpoint}   table ${sandbox.tableName}`);
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
} else {
  console.log(`\nWorkspace "${WORKSPACE}" already exists (its first key was printed on the first start).`);
  console.log(`Make another: npx cxctl key create --workspace ${WORKSPACE} --all\n`);
}
console.log('Ctrl-C stops everything.');
