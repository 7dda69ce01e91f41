/**
 * The platform's own items (entity.ts): the workspace and its copies, Developer keys, Idempotency-Key
 * records, and the table's own bookkeeping (layout
 * migrations, operator jobs), outside every workspace's partition where they are the table's.
 */
import { defineEntity } from './entity.ts';
import { keys } from './keys.ts';

const workspaceEntity = defineEntity({ name: 'Workspace', keys: { workspace: keys.workspace } });

const workspaceCopyEntity = defineEntity({ name: 'WorkspaceCopy', keys: { copy: keys.workspaceCopy } });

const developerKeyEntity = defineEntity({
  name: 'DeveloperKey',
  keys: { key: keys.developerKey, prefix: keys.developerKeyPrefix, lookup: keys.developerKeyLookup },
  // `cxctl key revoke <id>` finds a key's workspace through gsi1, without being told it.
  indexAttributes: ['workspace'],
});

const idempotencyRecordEntity = defineEntity({ name: 'IdempotencyRecord', keys: { record: keys.idempotency } });

const tableMigrationEntity = defineEntity({
  name: 'TableMigration',
  keys: { migration: keys.tableMigration, partition: keys.tableMigrationsPk },
});

const operatorJobEntity = defineEntity({ name: 'OperatorJob', keys: { job: keys.operatorJob } });

export const PLATFORM_ENTITIES = [
  workspaceEntity,
  workspaceCopyEntity,
  developerKeyEntity,
  idempotencyRecordEntity,
  tableMigrationEntity,
  operatorJobEntity,
] as const;
