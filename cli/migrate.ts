/**
 * `cxctl migrate [--dry-run] [--rate N]` and `cxctl migrate status`: the layout migrations
 * (lib/admin/migrations/) against the sandbox, LocalStack or a deployed table, like every cxctl command.
 * Ctrl-C stops after the step under way (saved: the next run resumes there); a second Ctrl-C quits at once.
 */

import { describeCounts, migrate, migrationStatus } from '../lib/admin/migrations/runner.ts';
import { AdminError, type TableClient } from '../lib/admin/table-client.ts';

/** Item writes a second unless --rate says otherwise: a fifth of one partition's 1,000 write units, with live traffic beside it. */
const DEFAULT_RATE = 200;

export interface MigrateCommand {
  action: string | undefined;
  dryRun: boolean;
  rate: string | undefined;
  /** cxctl targets the sandbox or a custom endpoint (LocalStack), not a deployed table. */
  local: boolean;
  json: boolean;
}

function rateOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_RATE;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new AdminError(`Invalid --rate "${value}": item writes a second, a whole number from 1`);
  return Number(value);
}

export async function runMigrate(store: TableClient, command: MigrateCommand): Promise<void> {
  if (command.action === 'status') {
    const status = await migrationStatus(store);
    if (command.json) return console.log(JSON.stringify(status, null, 2));
    for (const migration of status) {
      const when =
        migration.state === 'finished'
          ? `finished ${migration.finishedAt}`
          : migration.state === 'running'
            ? `started ${migration.startedAt}, last step ${migration.updatedAt}: not finished (run cxctl migrate)`
            : 'not run yet (run cxctl migrate)';
      console.log(`${migration.id}  ${when}\n  ${migration.title}`);
      console.log(`  ${migration.note ?? describeCounts(migration.counts)}`);
    }
    return;
  }
  if (command.action !== undefined) throw new AdminError(`Unknown migrate action "${command.action}": give none, or status`);
  const rate = rateOf(command.rate);
  let stop = false;
  const onInterrupt = () => {
    if (stop) process.exit(130);
    stop = true;
    console.error('Stopping after the step under way (Ctrl-C again to quit at once; the next run resumes from the last saved step)');
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  try {
    const outcomes = await migrate(store, {
      dryRun: command.dryRun,
      rate,
      local: command.local,
      log: command.json ? () => undefined : (line) => console.log(line),
      stopRequested: () => stop,
    });
    if (command.json) return console.log(JSON.stringify(outcomes, null, 2));
    const pending = outcomes.filter((outcome) => outcome.state !== 'done');
    if (pending.length === 0) console.log('Every migration has already run on this table: nothing to do');
    else if (command.dryRun) {
      for (const outcome of pending)
        console.log(`${outcome.id} would change: ${describeCounts(outcome.counts)} (dry run: nothing written)`);
    }
    if (outcomes.some((outcome) => outcome.state === 'stopped')) process.exitCode = 3;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}
