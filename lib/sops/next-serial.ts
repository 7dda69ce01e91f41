/**
 * The claim of a department's next serial (store/serials.ts): `write` gets the last serial read and
 * writes, in one transaction sent once, the next one with its claim on the counter. When the claim was
 * lost (another writer took the serial) or the transaction lost a race: back off, read the counter
 * again, try again, up to `SOP_WRITE_ATTEMPTS` times.
 */
import { conflictBackoff } from '../platform/data/conditions.ts';
import { isSerialClaimLost, readLastSerial, SOP_WRITE_ATTEMPTS } from './store/serials.ts';

export async function withNextSerial<T>(
  workspace: string,
  departmentId: string | null,
  firstRead: Promise<number>,
  write: (last: number) => Promise<T>,
): Promise<T> {
  let last = await firstRead;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(last);
    } catch (error) {
      if (!isSerialClaimLost(error)) throw error;
      if (attempt >= SOP_WRITE_ATTEMPTS) {
        throw new Error(`The SOP serial counter of ${workspace}/${departmentId ?? '-'} stayed contended for ${attempt} attempts`);
      }
    }
    await conflictBackoff(attempt);
    last = await readLastSerial(workspace, departmentId);
  }
}
