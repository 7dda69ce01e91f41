/**
 * Every entity of the single table, area by area (each declared once in its area's entities.ts), as
 * lib/manifest.ts is every route: what is collected from them is collected here, such as gsi1's
 * projection, which the CDK stack, the sandbox's table and migration 001 all build the index with.
 */
import { IDEA_ENTITIES } from './ideas/entities.ts';
import { JOURNEY_ENTITIES } from './journeys/entities.ts';
import { KNOWLEDGE_BANK_ENTITIES } from './knowledge-bank/entities.ts';
import { kbSearchManifestEntity } from './knowledge-bank/search/entities.ts';
import { PLATFORM_ENTITIES } from './platform/data/entities.ts';
import { gsi1Projection } from './platform/data/table.ts';
import { SOP_ENTITIES } from './sops/entities.ts';
import { SURVEY_ENTITIES } from './surveys/entities.ts';
import { WEBHOOK_ENTITIES } from './webhooks/entities.ts';

export const ENTITIES = [
  ...PLATFORM_ENTITIES,
  ...IDEA_ENTITIES,
  ...SOP_ENTITIES,
  ...WEBHOOK_ENTITIES,
  ...JOURNEY_ENTITIES,
  ...KNOWLEDGE_BANK_ENTITIES,
  kbSearchManifestEntity,
  ...SURVEY_ENTITIES,
] as const;

/** gsi1's non-key attributes: the union of what each entity's gsi1 queries read. */
export const GSI1_NON_KEY_ATTRIBUTES: readonly string[] = gsi1Projection(ENTITIES);
