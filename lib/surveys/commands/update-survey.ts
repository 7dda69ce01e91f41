/**
 * A survey's settings in one conditional UpdateItem. A `designId` or `targetingRules` is first checked
 * against the workspace's designs and audience catalog (one more read, which for `targetingRules` also
 * reads the survey: that write is a transaction with its collecting copies).
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { ValidationError } from '../../platform/errors.ts';
import { surveyNotFound } from '../errors.ts';
import { assertTargetingValid } from '../rules.ts';
import type { Survey, SurveyPatch } from '../schemas.ts';
import { listDesignsAndAudience, updateSurvey as storeChanges } from '../store/surveys.ts';

export async function updateSurvey(workspace: string, id: string, patch: SurveyPatch, precondition: VersionPrecondition): Promise<Survey> {
  let surveyItem: Record<string, unknown> | undefined;
  if (patch.designId || patch.targetingRules !== undefined) {
    const read = await listDesignsAndAudience(workspace, patch.targetingRules !== undefined ? id : undefined);
    const { designs, audience } = read;
    surveyItem = read.surveyItem;
    if (patch.targetingRules !== undefined && !surveyItem) throw surveyNotFound();
    // Another workspace's design is as unknown here as one that never existed.
    if (patch.designId && !designs.some((design) => design.id === patch.designId)) {
      throw new ValidationError('invalid_body', [
        { path: 'body.designId', message: 'must be a design of this workspace (GET /surveys/designs)' },
      ]);
    }
    if (patch.targetingRules) assertTargetingValid(patch.targetingRules, audience);
  }
  return storeChanges(workspace, id, patch, precondition, surveyItem);
}
