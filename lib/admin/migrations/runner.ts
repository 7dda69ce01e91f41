/**
 * Runs the layout migrations a table has not finished, in order (index.ts): each from its record's
 * checkpoint, its record written after every step (what it changed, where it got to), until it has
 * finished or the operator stops it (Ctrl-C: the step under way completes and is saved first). A
 * finished migration is never run again, so a second `cxctl migrate` changes nothing. `--dry-run`
 * scans and counts what each unfinished migration would change, and writes nothing, not even a record.
 */

import type { TableClient } from '../table-client.ts';
import { MIGRATIONS } from './index.ts';
import type { Migration } from './migration.ts';
import { type MigrationCounts, type MigrationRecord, readRecords, writeRecord } from './records.ts';
import { WriteRate } from './write-rate.ts';

export interface MigrateOptions {
  dryRun: boolean;
  /** Item writes a second, at most. */
  rate: number;
  /** A sandbox or LocalStack table (table-level changes may run in place). */
  local: boolean;
  log: (line: string) => void;
  /** Asked after every step: true stops the run there (it resumes from that step next time). */
  stopRequested: () => boolean;
}

export interface MigrateOutcome {
  id: string;
  /** `done`: finished before this run; `finished`: by it; `stopped`: interrupted, resumable; `dry-run`: counted only. */
  state: 'done' | 'finished' | 'stopped' | 'dry-run';
  counts: MigrationCounts;
}

/** A migration's counts as one line: `responses moved 1,200 · markers moved 1,180`. */
export function describeCounts(counts: MigrationCounts): string {
  const parts = Object.entries(counts).map(([what, count]) => `${what} ${count.toLocaleString('en')}`);
  return parts.length > 0 ? parts.join(' · ') : 'nothing';
}

async function runOne(
  store: TableClient,
  migration: Migration,
  found: MigrationRecord | undefined,
  options: MigrateOptions,
): Promise<MigrateOutcome> {
  const now = () => new Date().toISOString();
  const record: MigrationRecord = found ?? { id: migration.id, title: migration.title, startedAt: now(), updatedAt: now(), counts: {} };
  const counts: MigrationCounts = options.dryRun ? {} : { ...record.counts };
  if (!options.dryRun) {
    options.log(
      found?.checkpoint
        ? `${migration.id}: resuming where the last run stopped (${record.updatedAt})`
        : `${migration.id}: ${migration.title}`,
    );
    await writeRecord(store, { ...record, updatedAt: now(), counts });
  }
  let stopped = false;
  const finished = await migration.run({
    store,
    dryRun: options.dryRun,
    local: options.local,
    resumeFrom: found?.checkpoint,
    counts,
    rate: new WriteRate(options.rate),
    log: (line) => options.log(`${migration.id}: ${line}`),
    step: async (checkpoint) => {
      if (!options.dryRun) {
        record.checkpoint = checkpoint;
        await writeRecord(store, { ...record, updatedAt: now(), counts, ...(checkpoint ? { checkpoint } : {}) });
      }
      options.log(`${migration.id}: ${describeCounts(counts)}`);
      stopped = options.stopRequested();
      return !stopped;
    },
  });
  if (options.dryRun) return { id: migration.id, state: 'dry-run', counts };
  if (!finished || stopped) {
    options.log(`${migration.id}: stopped; run cxctl migrate again to go on from here`);
    return { id: migration.id, state: 'stopped', counts };
  }
  const { checkpoint: _done, ...rest } = record;
  await writeRecord(store, { ...rest, updatedAt: now(), finishedAt: now(), counts });
  options.log(`${migration.id}: finished (${describeCounts(counts)})`);
  return { id: migration.id, state: 'finished', counts };
}

export async function migrate(store: TableClient, options: MigrateOptions): Promise<MigrateOutcome[]> {
  const records = await readRecords(store);
  const outcomes: MigrateOutcome[] = [];
  for (const migration of MIGRATIONS) {
    const found = records.get(migration.id);
    if (found?.finishedAt) {
      outcomes.push({ id: migration.id, state: 'done', counts: found.counts });
      continue;
    }
    const outcome = await runOne(store, migration, found, options);
    outcomes.push(outcome);
    // A later migration may rely on an earlier one's layout: never run past one that stopped.
    if (outcome.state === 'stopped') break;
  }
  return outcomes;
}

export interface MigrationStatus {
  id: string;
  title: string;
  changes: readonly string[];
  state: 'finished' | 'running' | 'pending';
  startedAt?: string;
  updatedAt?: string;
  finishedAt?: string;
  counts: MigrationCounts;
  note?: string;
}

/** Which migrations this table has had, when, and how far the unfinished one got. */
export async function migrationStatus(store: TableClient): Promise<MigrationStatus[]> {
  const records = await readRecords(store);
  return MIGRATIONS.map((migration) => {
    const record = records.get(migration.id);
    return {
      id: migration.id,
      title: migration.title,
      changes: migration.changes,
      state: record?.finishedAt ? 'finished' : record ? 'running' : 'pending',
      ...(record ? { startedAt: record.startedAt, updatedAt: record.updatedAt } : {}),
      ...(record?.finishedAt ? { finishedAt: record.finishedAt } : {}),
      counts: record?.counts ?? {},
      ...(record?.note ? { note: record.note } : {}),
    };
  });
}

/** The migrations this table has not finished (the sandbox says so when it starts on an older DATA_DIR). */
export async function pendingMigrations(store: TableClient): Promise<string[]> {
  return (await migrationStatus(store)).filter((migration) => migration.state !== 'finished').map((migration) => migration.id);
}
