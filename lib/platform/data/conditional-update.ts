/**
 * One conditional UpdateItem that answers the item as written or, when its condition failed, the
 * item as it stood (ReturnValuesOnConditionCheckFailure, unmarshalled; undefined when there is
 * none), so a store tells 404 from 409 without a second read and hands what it saw to its rules.
 * A write that lost a race with a transaction on the item is sent again (conditions.ts).
 */
import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamo } from './client.ts';
import { isConditionFailure, retryTransactionConflicts } from './conditions.ts';
import { TRANSACTION_ATTEMPTS } from './transact.ts';

type Item = Record<string, unknown>;

export type UpdateOutcome = { written: Item; refused?: undefined } | { written?: undefined; refused: { current: Item | undefined } };

export async function updateItem(
  input: Omit<UpdateCommandInput, 'ReturnValues' | 'ReturnValuesOnConditionCheckFailure'>,
  attempts = TRANSACTION_ATTEMPTS,
): Promise<UpdateOutcome> {
  try {
    const { Attributes } = await retryTransactionConflicts(
      () => dynamo.send(new UpdateCommand({ ...input, ReturnValues: 'ALL_NEW', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })),
      attempts,
    );
    return { written: Attributes as Item };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { refused: { current: error.Item && unmarshall(error.Item) } };
  }
}
