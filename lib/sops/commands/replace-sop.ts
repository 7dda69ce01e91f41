/**
 * PUT /sops/{id}: the content replaced, from draft or published, back to draft with the review and
 * publication stamps cleared; under review → 400 invalid_state, nothing changed. When the department
 * changes, the SOP takes the next serial of its new department (the store's moveSop, claimed through
 * ../next-serial.ts).
 */
import { sopContentOf } from '../content.ts';
import { withNextSerial } from '../next-serial.ts';
import type { Sop } from '../record.ts';
import { assertDirectoryReferences } from '../references.ts';
import type { SopWriteBody } from '../schemas.ts';
import { readLastSerial, SOP_WRITE_ATTEMPTS } from '../store/serials.ts';
import { moveSop, writeReplacement } from '../store/sops.ts';
import { editRefusal } from '../workflow.ts';

export async function replaceSop(workspace: string, id: string, body: SopWriteBody): Promise<Sop> {
  const content = sopContentOf(body);
  await assertDirectoryReferences(workspace, content);
  for (let round = 1; ; round++) {
    const now = new Date().toISOString();
    const outcome = await writeReplacement(workspace, id, content, now);
    if (outcome.sop) return outcome.sop;
    const refused = editRefusal(outcome.refused);
    if (refused) throw refused;
    // Neither absent nor under review: the SOP is in another department.
    const current = outcome.refused!;
    const moved = await withNextSerial(workspace, content.departmentId, readLastSerial(workspace, content.departmentId), (last) =>
      moveSop(workspace, id, content, current, now, last),
    );
    if (moved) return moved;
    // The SOP changed between the two writes; look again unless that keeps happening.
    if (round >= SOP_WRITE_ATTEMPTS) throw new Error(`SOP ${workspace}/${id} kept changing during a department move`);
  }
}
