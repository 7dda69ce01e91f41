/**
 * Erasure on request (GDPR art. 17): every response of one respondent in the workspace, across
 * surveys, found through the respondent index (`SURVEYRESPONDENT#<keyed hash>#…`, responses/record.ts),
 * never by the identifier itself. At most ERASE_BATCH responses per call: one Query of the index, one
 * BatchGetItem per 100 responses (per 50 while migration 002 is unfinished: both keys of each), in
 * parallel, then one transaction per response (the same one DELETE runs), ten at a time. A response
 * that changed between the read and its delete is left for the next call (`hasMore`), as is anything
 * past the batch, and one its index names but that was not found: index items are deleted with their
 * response, so it was being moved by the migration or erased by a concurrent call, and the next call
 * settles which.
 */
import { respondentHash } from '../responses/record.ts';
import { ERASE_BATCH, type EraseBody } from '../responses/schemas.ts';
import { listRespondentIndex, readResponses } from '../responses/store/response-list.ts';
import { deleteResponseItem } from '../responses/store/responses.ts';

const PARALLEL_DELETES = 10;

export async function eraseRespondent(workspace: string, who: EraseBody): Promise<{ erased: number; hasMore: boolean }> {
  const hash = 'email' in who ? await respondentHash('email', who.email) : await respondentHash('externalId', who.externalId);
  const indexed = await listRespondentIndex(workspace, hash, ERASE_BATCH);
  // Both layouts while migration 002 is unfinished (response-list.ts): one BatchGetItem per 100 keys.
  const found = await readResponses(workspace, indexed.refs);
  const deletedAt = new Date().toISOString();
  let erased = 0;
  let leftOver = found.length < indexed.refs.length;
  const work = found.map((response) => async () => {
    if (await deleteResponseItem(workspace, response, deletedAt)) erased++;
    else leftOver = true;
  });
  for (let i = 0; i < work.length; i += PARALLEL_DELETES) {
    await Promise.all(work.slice(i, i + PARALLEL_DELETES).map((run) => run()));
  }
  return { erased, hasMore: leftOver || indexed.hasMore };
}
