/**
 * Every layout migration, in the order they run (`cxctl migrate`, docs/cxctl.md). A change of the
 * table's layout (a key, an index) ships with its migration here, in the same commit, and the code of
 * that commit reads both layouts; a later release requires the migration finished (its record, keys.ts
 * `tableMigration`; lib/platform/data/release-gate.ts) and reads only the new one, and the layout
 * before is then known only here (legacy-layout.ts for 002). A table the sandbox creates has the current
 * layout from the start: every migration is recorded finished on it (`recordNewTable`).
 */

import { recordOfNewTable } from '../../platform/data/release-gate.ts';
import type { TableClient } from '../table-client.ts';
import { gsi1Projection } from './001-gsi1-projection.ts';
import { surveyResponseShards } from './002-survey-response-shards.ts';
import type { Migration } from './migration.ts';
import { writeRecord } from './records.ts';

export const MIGRATIONS: readonly Migration[] = [gsi1Projection, surveyResponseShards];

/** Records every migration finished on a table created with the current layout: nothing to migrate. */
export async function recordNewTable(store: TableClient): Promise<void> {
  const now = new Date().toISOString();
  await Promise.all(MIGRATIONS.map((migration) => writeRecord(store, recordOfNewTable(migration, now))));
}
