/**
 * The items of SOPs (lib/platform/data/entity.ts). An SOP and its review comments form one item
 * collection (`SOP#<id>`, then `SOP#<id>#COMMENT#<createdAt>#<commentId>`), so GET /sops/{id} is one
 * Query. The list reads gsi1 instead, where only SOP items appear, sorted by status first so
 * "published only" is one range.
 */
import { defineEntity } from '../platform/data/entity.ts';
import { keys } from '../platform/data/keys.ts';
import { CONTENT_FIELDS } from './record.ts';

const sopEntity = defineEntity({
  name: 'Sop',
  keys: {
    sop: keys.sop,
    collectionEnd: keys.sopCollectionEnd,
    listing: keys.sopListing,
    listingPk: keys.sopListingPk,
    listingStatusPrefix: keys.sopListingStatusPrefix,
  },
  // GET /sops reads the SOP record from gsi1 (record.ts `toSop`).
  indexAttributes: ['id', 'serial', 'status', ...CONTENT_FIELDS, 'createdAt', 'updatedAt', 'submittedAt', 'publishedAt', 'approvedBy'],
});

export const SOP_ENTITIES = [sopEntity] as const;
