/** Turns a validated write body into the SOP content it sets: every field, null where not given. */
import type { SopContent } from './record.ts';
import type { SopWriteBody } from './schemas.ts';

export function sopContentOf(body: SopWriteBody): SopContent {
  return {
    titleEn: body.titleEn ?? null,
    titleAr: body.titleAr ?? null,
    type: body.type,
    departmentId: body.departmentId ?? null,
    descriptionEn: body.descriptionEn ?? null,
    descriptionAr: body.descriptionAr ?? null,
    steps: body.steps.map((step) => ({ titleEn: step.titleEn ?? null, titleAr: step.titleAr ?? null, body: step.body ?? null })),
    escalationLevel1: body.escalationLevel1 ?? null,
    escalationLevel2: body.escalationLevel2 ?? null,
    escalationLevel3: body.escalationLevel3 ?? null,
  };
}
