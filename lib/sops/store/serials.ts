/**
 * Department serial counters: `SOPSERIAL#…` items holding the last serial handed out in a
 * department (keys.sopSerialCounter). A serial is claimed inside the transaction that uses it, so
 * concurrent writers never share one and a transaction that fails claims nothing (no gap); the
 * claim's retries are the caller's (../next-serial.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { isTransactionConflict } from '../../platform/data/conditions.ts';
import { projection } from '../../platform/data/projection.ts';
import { TransactionCancelledError, type TransactWrite } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { sopSerialCounterEntity } from '../entities.ts';

/** Attempts before a contended serial counter, or an SOP write racing others, gives up (then 502). */
export const SOP_WRITE_ATTEMPTS = 25;

/** The name of the counter's update in a transaction that claims a serial. */
export const SERIAL_CLAIM = 'serial';

/** The last serial handed out in a department (0 before the first), strongly consistent. */
export async function readLastSerial(workspace: string, departmentId: string | null): Promise<number> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName,
      Key: sopSerialCounterEntity.keys.counter(workspace, departmentId),
      ...projection(['lastSerial']),
      ConsistentRead: true,
    }),
  );
  return (Item?.lastSerial as number | undefined) ?? 0;
}

/** The counter's update claiming `last + 1`: it holds only if nobody claimed a serial since `last` was read. */
export function serialClaim(workspace: string, departmentId: string | null, last: number): TransactWrite {
  const claimed = update()
    .set('lastSerial', last + 1)
    .set('entity', sopSerialCounterEntity.name);
  return {
    Update: {
      TableName: tableName,
      Key: sopSerialCounterEntity.keys.counter(workspace, departmentId),
      ...claimed.build(
        last === 0
          ? { expression: 'attribute_not_exists(pk)' }
          : { expression: `${claimed.placeholder('lastSerial')} = :last`, values: { ':last': last } },
      ),
    },
  };
}

/** Whether a transaction that claimed a serial lost it (another writer took it) or lost a race: read the counter again. */
export function isSerialClaimLost(error: unknown): boolean {
  return (error instanceof TransactionCancelledError && error.failed(SERIAL_CLAIM)) || isTransactionConflict(error);
}
