/**
 * `cxctl backup verify` and `cxctl backup restore` (lib/admin/backup.ts, lib/admin/restore.ts), in
 * the sandbox or on a deployed stack. The sandbox's equivalents: its template is the one the sandbox
 * synthesized (local/iam/cloud-assembly.ts), its secret the key file beside its table in DATA_DIR.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  type BackupFacts,
  backupChecks,
  deployedSecretFacts,
  deployedTemplate,
  retentionOf,
  type SecretFacts,
  tableFacts,
} from '../../lib/admin/backup.ts';
import { restoreTable } from '../../lib/admin/restore.ts';
import type { SandboxNeed } from '../../lib/admin/sandbox-identity.ts';
import { AdminError } from '../../lib/admin/table-client.ts';
import { sandboxVariablesOf, type Target } from '../../lib/admin/target.ts';
import { cloudAssembly } from '../../local/iam/cloud-assembly.ts';
import { type CommandContext, stringOption } from './context.ts';

function dynamodbOf(target: Target): DynamoDBClient {
  return new DynamoDBClient(target.settings);
}

/** The sandbox keeps its signing key beside the table, in DATA_DIR (local/sandbox.ts). */
function sandboxSecretFacts(target: Target): SecretFacts | null {
  const dataDir = target.sandbox?.running?.dataDir ?? target.sandbox?.dataDir ?? '.data';
  if (!existsSync(dataDir)) return null;
  const file = join(dataDir, 'cursor-signing-key');
  return { where: file, exists: existsSync(file) };
}

async function factsOf(target: Target, client: DynamoDBClient): Promise<BackupFacts> {
  const table = await tableFacts(client, target.store.table);
  if (target.kind === 'sandbox') {
    const assembly = await cloudAssembly();
    return { table, retention: retentionOf(assembly.templates.get(assembly.root)!), secret: sandboxSecretFacts(target) };
  }
  if (!target.stack) return { table, retention: null, secret: null };
  const secretArn = target.stack.outputs.SigningSecretArn;
  return {
    table,
    retention: retentionOf(await deployedTemplate(target.stack.name, target.settings)),
    secret: secretArn ? await deployedSecretFacts(secretArn, target.settings) : null,
  };
}

/** What to run to put the service back onto `table` (after a restore, or a delete of the stack). */
function redeployCommand(target: Target, table: string, streamArn: string): string {
  if (target.kind === 'sandbox') return `${sandboxVariablesOf(target, table, ['api', 'table', 'objects'])}npm start`;
  const secret = target.stack?.outputs.SigningSecretArn ?? '<the stack output SigningSecretArn>';
  const stackName = target.stack ? ` -c stackName=${target.stack.name}` : '';
  return `npx cdk deploy${stackName} -c tableName=${table} -c tableStreamArn=${streamArn} -c signingSecretArn=${secret}`;
}

export async function backupVerifyCommand(context: CommandContext): Promise<void> {
  const client = dynamodbOf(context.target);
  try {
    const facts = await factsOf(context.target, client);
    const checks = backupChecks(facts);
    if (context.target.kind === 'sandbox' && !facts.secret) {
      checks.push({ ok: null, what: 'signing secret', detail: 'the sandbox runs in memory (no DATA_DIR): nothing outlives it' });
    }
    const ok = checks.every((check) => check.ok !== false);
    const redeploy = facts.table.stream ? redeployCommand(context.target, facts.table.name, facts.table.stream.arn) : null;
    const mark = (check: (typeof checks)[number]) => (check.ok === null ? '–' : check.ok ? '✓' : '✖');
    context.print(
      { target: context.target.label, ok, checks, redeploy },
      [
        `Backup and restore of ${context.target.label}`,
        ...checks.map((check) => `  ${mark(check)} ${check.what}: ${check.detail}`),
        ...(redeploy ? [`To run on this table again after a delete: ${redeploy}`] : []),
      ].join('\n'),
    );
    if (!ok) process.exitCode = 1;
  } finally {
    client.destroy();
  }
}

export async function backupRestoreCommand(context: CommandContext): Promise<void> {
  const to = stringOption(context, 'to');
  if (!to) throw new AdminError('Name the new table with --to NAME');
  const { target } = context;
  const client = dynamodbOf(target);
  try {
    const restored = await restoreTable(client, target.store, {
      to,
      time: stringOption(context, 'time'),
      resume: stringOption(context, 'resume'),
      sandbox: target.kind === 'sandbox',
      label: target.label,
      log: context.log,
    });
    const cxctl = (needs: SandboxNeed[]) =>
      target.kind === 'sandbox'
        ? `${sandboxVariablesOf(target, to, needs)}npx cxctl`
        : `npx cxctl --stack ${target.stack?.name ?? '<stack>'}`;
    context.print(
      { ...restored, next: redeployCommand(target, to, restored.streamArn) },
      [
        `Restored into ${to} in ${(restored.ms / 1000).toFixed(1)} s${restored.copied === null ? '' : ` (${restored.copied} items copied)`}. Next:`,
        target.kind === 'sandbox'
          ? `  1. stop the sandbox, then start it on the copy:  ${redeployCommand(target, to, restored.streamArn)}`
          : `  1. deploy the stack onto it:  ${redeployCommand(target, to, restored.streamArn)}`,
        '  2. rebuild what is derived from the table:',
        `       ${cxctl(['table', 'objects'])} rebuild search --all`,
        `       ${cxctl(['table'])} rebuild summaries --all`,
      ].join('\n'),
    );
  } finally {
    client.destroy();
  }
}
