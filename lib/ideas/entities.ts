/**
 * The items of ideas (lib/platform/data/entity.ts), under the workspace's partition. Ids are UUIDv7
 * (time-ordered), so `IDEA#<id>` sorts by creation and a descending Query lists newest first. The
 * per-workspace counter sorts just after every idea ('$' > '#'), so that same descending Query returns
 * the total first, in one round trip. The range IDEA# … IDEA$COUNTER holds nothing but ideas and the
 * counter.
 *
 * An idea holds, besides its public fields, the private ones (`submitter`, `submitterHash`,
 * `customerContext`) and who wrote it (`createdByKeyId`, `updatedByKeyId`). `status` is a plain
 * top-level attribute, so a stream record of a change (the table streams NEW_AND_OLD_IMAGES) carries
 * the old status in OldImage and the new one in NewImage; `workspace` and `id` name it without
 * parsing keys.
 */
import { defineEntity } from '../platform/data/entity.ts';
import { workspacePk } from '../platform/data/keys.ts';
import { COMMENT_ENTITIES } from './comment-entities.ts';
import { VOTE_ENTITIES } from './vote-entities.ts';

const ideaKey = (workspace: string, id: string) => ({ pk: workspacePk(workspace), sk: `IDEA#${id}` });

/**
 * What any response may show. Reads project exactly these attributes, so submitter data and
 * customer context never even reach the function on a read.
 */
export const PUBLIC_IDEA_ATTRIBUTES = [
  'id',
  'title',
  'titleAr',
  'description',
  'status',
  'module',
  'moderationStatus',
  'visibility',
  'priority',
  'statusMessage',
  'statusMessageAr',
  'mergedInto',
  'mergedFrom',
  'version',
  'createdAt',
  'updatedAt',
] as const;

export const ideaEntity = defineEntity({
  name: 'Idea',
  keys: {
    idea: ideaKey,
    /** The descending range of a workspace's ideas, their counter first. */
    list: { from: 'IDEA#', to: 'IDEA$COUNTER' },
  },
  publicAttributes: PUBLIC_IDEA_ATTRIBUTES,
});

/**
 * One per identifier an idea was submitted with (`IDEAPERSON#<personRef>#<ideaId>`), so the erasure of a
 * person finds their ideas by their reference (lib/ideas/people.ts), strongly consistent.
 */
export const submitterIndexEntity = defineEntity({
  name: 'IdeaSubmitterIndex',
  keys: {
    index: (workspace: string, personRef: string, ideaId: string) => ({
      pk: workspacePk(workspace),
      sk: `IDEAPERSON#${personRef}#${ideaId}`,
    }),
    prefix: (personRef: string) => `IDEAPERSON#${personRef}#`,
  },
});

export const ideaCounterEntity = defineEntity({
  name: 'IdeaCounter',
  keys: { counter: (workspace: string) => ({ pk: workspacePk(workspace), sk: 'IDEA$COUNTER' }) },
});

export const IDEA_ENTITIES = [ideaEntity, ideaCounterEntity, ...VOTE_ENTITIES, ...COMMENT_ENTITIES, submitterIndexEntity] as const;
