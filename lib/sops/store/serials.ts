/**
 * Department serial counters: `SOPSERIAL#…` items holding the last serial handed out in a
 * department (keys.sopSerialCounter). A serial is claimed inside the transaction that uses it, so
 * concurrent writers never share one and a transaction that fails claims nothing (no gap).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { conflictBackoff, isTransactionConflict } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { projection } from '../../platform/data/projection.ts';
import { TransactionCancelledError, type TransactWrite } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';

/** Attempts before a contended serial counter, or an SOP write racing others, gives up (then 502). */
export const SOP_WRITE_ATTEMPTS = 25;

/** The name of the counter's update in the caller's transaction. */
export const SERIAL_CLAIM = 'serial';

/** The last serial handed out in a department (0 before the first), strongly consistent. */
export async function readLastSerial(workspace: string, departmentId: string | null): Promise<number> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.sopSerialCounter(workspace, departmentId),
      ...projection(['lastSerial']),
      ConsistentRead: true,
    }),
  );
  return (Item?.lastSerial as number | undefined) ?? 0;
}

/** The counter's update claiming `last + 1`: it holds only if nobody claimed a serial since `last` was read. */
function serialClaim(workspace: string, departmentId: string | null, last: number): TransactWrite {
  const claimed = update()
    .set('lastSerial', last + 1)
    .set('entity', 'SopSerialCounter');
  return {
    Update: {
      TableName: tableName,
      Key: keys.sopSerialCounter(workspace, departmentId),
      ...claimed.build(
        last === 0
          ? { expression: 'attribute_not_exists(pk)' }
          : { expression: `${claimed.placeholder('lastSerial')} = :last`, values: { ':last': last } },
      ),
    },
  };
}

/**
 * Claims the next serial of a department inside the caller's transaction: `commit` gets the serial
 * and the claim, which it writes under the name `SERIAL_CLAIM` with its own items. When the claim
 * failed (another writer took the serial) or the transaction lost a race: re-read, back off, try
 * again, up to `SOP_WRITE_ATTEMPTS` times. `commit` sends its transaction with one attempt, so the
 * races it loses come back here, where the counter is read again.
 */
export async function withNextSerial(
  workspace: string,
  departmentId: string | null,
  firstRead: Promise<number>,
  commit: (serial: number, claim: TransactWrite) => Promise<void>,
): Promise<number> {
  let last = await firstRead;
  for (let attempt = 1; ; attempt++) {
    const serial = last + 1;
    try {
      await commit(serial, serialClaim(workspace, departmentId, last));
      return serial;
    } catch (error) {
      const contended = (error instanceof TransactionCancelledError && error.failed(SERIAL_CLAIM)) || isTransactionConflict(error);
      if (!contended) throw error;
      if (attempt >= SOP_WRITE_ATTEMPTS) {
        throw new Error(`The SOP serial counter of ${workspace}/${departmentId ?? '-'} stayed contended for ${attempt} attempts`);
      }
    }
    await conflictBackoff(attempt);
    last = await readLastSerial(workspace, departmentId);
  }
}
