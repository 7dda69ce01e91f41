/**
 * A survey's settings in one conditional UpdateItem. A `designId` or `targetingRules` is first checked
 * against the workspace's designs and audience catalog (one more read, which for `targetingRules` also
 * reads the survey: that write is a transaction with its collecting copies, conditional on the version
 * read; a survey changed since is decided again on the item the failed condition handed back, a few times).
 */
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { TransactionCancelledError } from '../../platform/data/transact.ts';
import { ValidationError } from '../../platform/errors.ts';
import { surveyConditionFailure, surveyNotFound } from '../errors.ts';
import { assertTargetingValid } from '../rules.ts';
import type { Survey, SurveyPatch } from '../schemas.ts';
import { STATE_CHANGE_READS } from '../state-rules.ts';
import { listDesignsAndAudience, updateSurvey as storeChanges, writeTargeting } from '../store/surveys.ts';

export async function updateSurvey(workspace: string, id: string, patch: SurveyPatch, precondition: VersionPrecondition): Promise<Survey> {
  if (!patch.designId && patch.targetingRules === undefined) return storeChanges(workspace, id, patch, precondition);
  const { designs, audience, surveyItem } = await listDesignsAndAudience(workspace, patch.targetingRules !== undefined ? id : undefined);
  if (patch.targetingRules !== undefined && !surveyItem) throw surveyNotFound();
  // Another workspace's design is as unknown here as one that never existed.
  if (patch.designId && !designs.some((design) => design.id === patch.designId)) {
    throw new ValidationError('invalid_body', [
      { path: 'body.designId', message: 'must be a design of this workspace (GET /surveys/designs)' },
    ]);
  }
  if (patch.targetingRules) assertTargetingValid(patch.targetingRules, audience);
  if (!surveyItem) return storeChanges(workspace, id, patch, precondition);
  let current = surveyItem;
  for (let attempt = 1; ; attempt++) {
    if (current.status === 'archived' || !meetsPrecondition(precondition, Number(current.version))) throw surveyConditionFailure(current);
    try {
      return await writeTargeting(workspace, id, patch, current);
    } catch (error) {
      if (!(error instanceof TransactionCancelledError) || !error.failed('survey') || attempt >= STATE_CHANGE_READS) throw error;
      const seen = error.current('survey');
      if (!seen) throw surveyNotFound();
      current = seen;
    }
  }
}
