/** POST /sops: a new draft SOP with its department's next serial. */
import { sopContentOf } from '../content.ts';
import type { Sop } from '../record.ts';
import { assertDirectoryReferences } from '../references.ts';
import type { SopWriteBody } from '../schemas.ts';
import { createSop as insertSop } from '../store/sops.ts';

export function createSop(workspace: string, body: SopWriteBody): Promise<Sop> {
  const content = sopContentOf(body);
  // The directory check and the serial counter read share one round trip.
  return insertSop(workspace, content, assertDirectoryReferences(workspace, content));
}
