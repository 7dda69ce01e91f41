/**
 * Every layout migration, in the order they run (`cxctl migrate`, docs/cxctl.md). A change of the
 * table's layout (a key, an index) ships with its migration here, in the same commit, and the code of
 * that commit reads both layouts until the migration's record says it has finished (keys.ts
 * `tableMigration`, lib/platform/data/layout-migration.ts). A table the sandbox creates has the current
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
