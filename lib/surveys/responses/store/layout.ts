/**
 * The survey-response key layout and its migration: `002-survey-response-shards`
 * (lib/admin/migrations/) moves responses written before it out of their one ascending range into the
 * 64 sharded ones (../entities.ts), their change-feed entries under the 16 sharded feed keys, and the
 * aggregator's markers to their hashed keys. Until this table has finished it, every read also looks
 * where the old layout kept things; writes always go to the new layout (a continuation or delete of an
 * old response moves or removes it there).
 */
import { LayoutMigration } from '../../../platform/data/layout-migration.ts';
import { RESPONSE_LAYOUT_MIGRATION_ID } from '../legacy-layout.ts';

export const responseLayout = new LayoutMigration(RESPONSE_LAYOUT_MIGRATION_ID);
