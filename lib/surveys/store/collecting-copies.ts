/**
 * Copies of a survey's collecting state (`SURVEYSTATE#<survey>#<nn>`, keys.ts): its status, its
 * published version and a digest of its targeting rules, everything a response write was validated
 * against. A submit's transaction checks the copy its response id hashes to rather than the survey
 * item, so 5,000 submits a second read 16 items at 625 read units a second each instead of one item
 * at 10,000 (over DynamoDB's 3,000 per item). Every write that changes one of these fields writes all
 * the copies in its own transaction (publish, close, archive, a PATCH of the targeting rules), so a
 * copy never disagrees with the survey item. A copy without `status` (written only by a targeting
 * change of a survey never published since this layout, or none at all: a survey last changed before
 * migration 002) proves nothing, and the write checks the survey item itself, as before.
 */
import { tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import type { NamedWrites } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { COPY_ENTITY, type CollectingCopy, copyOf } from '../collecting-state.ts';

/** The copy a response checks: fixed by its id, so its writes spread evenly over the copies. */
export function copyKey(workspace: string, surveyId: string, responseId: string) {
  return keys.surveyCollectingCopy(workspace, surveyId, copyOf(responseId));
}

/** The transaction items that set `fields` on every copy of the survey's state. */
export function copyWrites(workspace: string, surveyId: string, fields: Partial<CollectingCopy>): NamedWrites {
  const writes: NamedWrites = {};
  for (let copy = 0; copy < keys.surveyCollectingCopies; copy++) {
    const change = update().set('entity', COPY_ENTITY).set('surveyId', surveyId);
    for (const [name, value] of Object.entries(fields)) {
      if (value === null) change.remove(name);
      else change.set(name, value);
    }
    writes[`collecting copy ${copy}`] = {
      Update: { TableName: tableName, Key: keys.surveyCollectingCopy(workspace, surveyId, copy), ...change.build() },
    };
  }
  return writes;
}
