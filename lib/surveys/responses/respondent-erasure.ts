/**
 * Erasure on request (GDPR art. 17): every response of one respondent in the workspace, across
 * surveys, found through the respondent index (`SURVEYRESPONDENT#<keyed hash>#…`, record.ts), never
 * by the identifier itself. At most ERASE_BATCH responses per call: one Query of the index, one
 * BatchGetItem of the responses, then one transaction per response (the same one DELETE runs), ten
 * at a time. A response that changed between the read and its delete is left for the next call
 * (`hasMore`), as is anything past the batch.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import { TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { respondentHash } from './record.ts';
import { removalWrites } from './response-store.ts';
import { ERASE_BATCH, type EraseBody } from './schemas.ts';

const PARALLEL_DELETES = 10;

export async function eraseRespondent(workspace: string, who: EraseBody): Promise<{ erased: number; hasMore: boolean }> {
  const hash = 'email' in who ? await respondentHash('email', who.email) : await respondentHash('externalId', who.externalId);
  const { Items = [], LastEvaluatedKey } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': keys.surveyRespondentPrefix(hash) },
      Limit: ERASE_BATCH,
      ConsistentRead: true,
    }),
  );
  const responseKeys = Items.map((item) => keys.surveyResponse(workspace, item.surveyId as string, item.responseId as string));
  const found = await getMany(responseKeys);
  const deletedAt = new Date().toISOString();
  let erased = 0;
  let leftOver = false;
  const work = found.map((response) => async () => {
    // The respondent index is written in the response's own transactions, so a response found
    // through it exists (a concurrent erase may just have taken it: nothing left to do).
    if (!response) return;
    try {
      await transact(removalWrites(workspace, response, deletedAt));
      erased++;
    } catch (error) {
      if (!(error instanceof TransactionCancelledError)) throw error;
      leftOver = true;
    }
  });
  for (let i = 0; i < work.length; i += PARALLEL_DELETES) {
    await Promise.all(work.slice(i, i + PARALLEL_DELETES).map((run) => run()));
  }
  return { erased, hasMore: leftOver || LastEvaluatedKey !== undefined };
}
