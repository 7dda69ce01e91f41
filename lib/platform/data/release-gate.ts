/**
 * The release gate: this release no longer reads the table layouts from before the migrations it
 * requires, so it refuses a table on which they have not finished (their records at
 * `pk = TABLE#MIGRATIONS`, written by `cxctl migrate`, lib/admin/migrations/). `cdk deploy` asks it
 * through a custom resource every function waits for (functions/stack/release-gate.ts), so the
 * update fails before any function changes (table-migrations.ts reads the records there); the sandbox
 * asks it before it starts on a DATA_DIR (local/sandbox.ts). Both say the same thing: which migration,
 * and the command that finishes it. Free of the client, so CDK reads what a release requires.
 */
import { keys } from './keys.ts';

/** A layout migration as the gate names it: its id and title, as its record holds them. */
export interface RequiredMigration {
  id: string;
  title: string;
}

/**
 * The migrations this release requires finished: it reads only the layout after them. A migration
 * enters this list in the release after the one that shipped it (which read both layouts while it ran).
 */
export const REQUIRED_MIGRATIONS: readonly RequiredMigration[] = [
  {
    id: '002-survey-response-shards',
    title: 'Survey responses in 64 ranges, their change feed under 16 keys, markers at hashed keys, collecting copies',
  },
];

/** What a migration's record says of it (lib/admin/migrations/records.ts writes it). */
export interface MigrationRecordState {
  id: string;
  finishedAt?: string;
}

/** The required migrations whose records do not say finished, in order. */
export function unfinishedMigrations(records: readonly MigrationRecordState[], required = REQUIRED_MIGRATIONS): string[] {
  const finished = new Set(records.filter((record) => typeof record.finishedAt === 'string').map((record) => record.id));
  return required.filter((migration) => !finished.has(migration.id)).map((migration) => migration.id);
}

/**
 * The gate's refusal, one message for `cdk deploy` and `npm start`: `command` is how to run the
 * migration on this table, `then` what happens after it.
 */
export function releaseGateRefusal(table: string, unfinished: readonly string[], command: string, then: string): string {
  const which = unfinished.length === 1 ? `layout migration ${unfinished[0]}` : `layout migrations ${unfinished.join(', ')}`;
  return (
    `Table ${table} has not finished ${which}, which this release requires: it no longer reads the layout from before. ` +
    `Run \`${command}\` (it resumes where it stopped), then ${then}. ` +
    'docs/operating.md ("Upgrading") says which releases may be skipped.'
  );
}

/** The record of a migration a table never needed: created with the layout after it (`cxctl migrate`'s too). */
export function recordOfNewTable(migration: RequiredMigration, now: string) {
  return {
    id: migration.id,
    title: migration.title,
    startedAt: now,
    updatedAt: now,
    finishedAt: now,
    counts: {},
    note: 'created with this layout: nothing to migrate',
  };
}

/** That record as the table holds it. */
export function finishedOnNewTable(migration: RequiredMigration, now: string) {
  return { ...keys.tableMigration(migration.id), entity: 'TableMigration', ...recordOfNewTable(migration, now) };
}
