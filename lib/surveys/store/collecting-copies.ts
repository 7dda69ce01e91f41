/**
 * Copies of a survey's collecting state (`SURVEYSTATE#<survey>#<nn>`, ../entities.ts): its status, its
 * published version and a digest of its targeting rules, everything a response write was validated
 * against. A submit's transaction checks the copy its response id hashes to rather than the survey
 * item: a check is billed as a transactional write of its item (2 units), so 5,000 submits a second
 * would put 10,000 units on one item (DynamoDB serves 1,000 write units a second per partition), and
 * put 312 on each of 32 copies. Every write that changes one of these fields writes all
 * the copies in its own transaction (publish, close, archive, a PATCH of the targeting rules), so a
 * copy never disagrees with the survey item. A copy without `status` (written only by a targeting
 * change of a survey never published since this layout, or none at all: a survey last changed before
 * migration 002) proves nothing, and the write checks the survey item itself, as before.
 */
import { tableName } from '../../platform/data/client.ts';
import type { NamedWrites } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { COPY_ENTITY, type CollectingCopy, copyOf } from '../collecting-state.ts';
import { collectingStateEntity, SURVEY_COLLECTING_COPIES } from '../entities.ts';

/** The copy a response checks: fixed by its id, so its writes spread evenly over the copies. */
export function copyKey(workspace: string, surveyId: string, responseId: string) {
  return collectingStateEntity.keys.copy(workspace, surveyId, copyOf(responseId));
}

/** The transaction items that set `fields` on every copy of the survey's state. */
export function copyWrites(workspace: string, surveyId: string, fields: Partial<CollectingCopy>): NamedWrites {
  const writes: NamedWrites = {};
  for (let copy = 0; copy < SURVEY_COLLECTING_COPIES; copy++) {
    const change = update().set('entity', COPY_ENTITY).set('surveyId', surveyId);
    for (const [name, value] of Object.entries(fields)) {
      if (value === null) change.remove(name);
      else change.set(name, value);
    }
    writes[`collecting copy ${copy}`] = {
      Update: { TableName: tableName, Key: collectingStateEntity.keys.copy(workspace, surveyId, copy), ...change.build() },
    };
  }
  return writes;
}
