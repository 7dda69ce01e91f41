/**
 * The items of SOPs (lib/platform/data/entity.ts). An SOP and its review comments form one item
 * collection (`SOP#<id>`, then `SOP#<id>#COMMENT#<createdAt>#<commentId>`), so GET /sops/{id} is one
 * Query. The list reads gsi1 instead, where only SOP items appear, sorted by status first so
 * "published only" is one range. Ids are [A-Za-z0-9_-] only, all above '#', so the collection range
 * of one id never holds another's. The directory's people and teams (`cxctl directory import`) are
 * read by the review rules.
 */
import { defineEntity } from '../platform/data/entity.ts';
import { workspacePk } from '../platform/data/keys.ts';
import { CONTENT_FIELDS } from './record.ts';

const listingPk = (workspace: string) => `WS#${workspace}#SOPS`;

export const sopEntity = defineEntity({
  name: 'Sop',
  keys: {
    sop: (workspace: string, id: string) => ({ pk: workspacePk(workspace), sk: `SOP#${id}` }),
    /** Upper bound of an SOP's item collection, for `sk BETWEEN sop.sk AND collectionEnd`. */
    collectionEnd: (sopId: string) => `SOP#${sopId}#~`,
    listing: (workspace: string, status: string, id: string) => ({ gsi1pk: listingPk(workspace), gsi1sk: `${status}#${id}` }),
    listingPk,
    listingStatusPrefix: (status: string) => `${status}#`,
  },
  // GET /sops reads the SOP record from gsi1 (record.ts `toSop`).
  indexAttributes: ['id', 'serial', 'status', ...CONTENT_FIELDS, 'createdAt', 'updatedAt', 'submittedAt', 'publishedAt', 'approvedBy'],
});

export const sopCommentEntity = defineEntity({
  name: 'SopComment',
  keys: {
    comment: (workspace: string, sopId: string, createdAt: string, commentId: string) => ({
      pk: workspacePk(workspace),
      sk: `SOP#${sopId}#COMMENT#${createdAt}#${commentId}`,
    }),
  },
});

/** The last serial handed out in a department (`-` = SOPs without a department). */
export const sopSerialCounterEntity = defineEntity({
  name: 'SopSerialCounter',
  keys: {
    counter: (workspace: string, departmentId: string | null) => ({ pk: workspacePk(workspace), sk: `SOPSERIAL#${departmentId ?? '-'}` }),
  },
});

/** The directory (people and teams), filled by `cxctl directory import`: all of it under `DIR#`. */
export const directoryPersonEntity = defineEntity({
  name: 'DirectoryPerson',
  keys: {
    person: (workspace: string, id: string) => ({ pk: workspacePk(workspace), sk: `DIR#PERSON#${id}` }),
    prefix: 'DIR#PERSON#',
    /** Every directory entry, people and teams. */
    directoryPrefix: 'DIR#',
  },
});

export const directoryTeamEntity = defineEntity({
  name: 'DirectoryTeam',
  keys: {
    team: (workspace: string, id: string) => ({ pk: workspacePk(workspace), sk: `DIR#TEAM#${id}` }),
    prefix: 'DIR#TEAM#',
  },
});

export const SOP_ENTITIES = [sopEntity, sopCommentEntity, sopSerialCounterEntity, directoryPersonEntity, directoryTeamEntity] as const;
