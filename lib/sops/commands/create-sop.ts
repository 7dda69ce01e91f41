/** POST /sops: a new draft SOP with its department's next serial (claimed through ../next-serial.ts). */
import { randomUUID } from 'node:crypto';
import { sopContentOf } from '../content.ts';
import { withNextSerial } from '../next-serial.ts';
import type { Sop } from '../record.ts';
import { assertDirectoryReferences } from '../references.ts';
import type { SopWriteBody } from '../schemas.ts';
import { readLastSerial } from '../store/serials.ts';
import { insertSop } from '../store/sops.ts';

export function createSop(workspace: string, body: SopWriteBody): Promise<Sop> {
  const content = sopContentOf(body);
  const id = randomUUID();
  const now = new Date().toISOString();
  // The directory check and the serial counter read share one round trip; nothing is written unless the check passes.
  const firstRead = Promise.all([assertDirectoryReferences(workspace, content), readLastSerial(workspace, content.departmentId)]).then(
    ([, last]) => last,
  );
  return withNextSerial(workspace, content.departmentId, firstRead, (last) => insertSop(workspace, id, content, now, last));
}
