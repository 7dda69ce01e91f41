/**
 * A survey's settings in one conditional UpdateItem. A `designId` or `targetingRules` is first checked
 * against the workspace's designs and audience catalog (one more read, which for `targetingRules` also
 * reads the survey: that write is a transaction with its collecting copies, conditional on the version
 * read; a survey changed since is decided again on the item the failed condition handed back, a few times).
 */
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { ValidationError } from '../../platform/errors.ts';
import { surveyConditionFailure, surveyNotFound } from '../errors.ts';
import { assertTargetingValid } from '../rules.ts';
import type { Survey, SurveyPatch } from '../schemas.ts';
import { STATE_CHANGE_READS } from '../state-rules.ts';
import { listDesignsAndAudience, writeSurveyChanges, writeTargeting } from '../store/surveys.ts';

export async function updateSurvey(workspace: string, id: string, patch: SurveyPatch, precondition: VersionPrecondition): Promise<Survey> {
  if (!patch.designId && patch.targetingRules === undefined) return writeSurveyChanges(workspace, id, patch, precondition);
  const { designs, audience, surveyItem } = await listDesignsAndAudience(workspace, patch.targetingRules !== undefined ? id : undefined);
  if (patch.targetingRules !== undefined && !surveyItem) throw surveyNotFound();
  // Another workspace's design is as unknown here as one that never existed.
  if (patch.designId && !designs.some((design) => design.id === patch.designId)) {
    throw new ValidationError('invalid_body', [
      { path: 'body.designId', message: 'must be a design of this workspace (GET /surveys/designs)' },
    ]);
  }
  if (patch.targetingRules) assertTargetingValid(patch.targetingRules, audience);
  if (!surveyItem) return writeSurveyChanges(workspace, id, patch, precondition);
  let current = surveyItem;
  for (let attempt = 1; ; attempt++) {
    if (current.status === 'archived' || !meetsPrecondition(precondition, Number(current.version))) throw surveyConditionFailure(current);
    const written = await writeTargeting(workspace, id, patch, current);
    if ('survey' in written) return written.survey;
    // Changed since the read: decided again on the survey as it stands, a few times.
    if (attempt >= STATE_CHANGE_READS) throw new Error(`The survey changed under its targeting write ${attempt} times`);
    if (!written.surveyChanged) throw surveyNotFound();
    current = written.surveyChanged;
  }
}
