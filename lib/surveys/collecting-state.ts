/**
 * The collecting state a response write depends on, as the survey's copies hold it
 * (store/collecting-copies.ts writes them, responses/collecting.ts checks them): pure, so the
 * operator's migration (lib/admin/migrations/) writes the very same copies.
 */
import { createHash } from 'node:crypto';
import type { TargetingRules } from './engine/targeting.ts';
import { SURVEY_COLLECTING_COPIES } from './entities.ts';
import { surveyResponseShardOf } from './responses/entities.ts';
import type { Survey } from './schemas.ts';

export const COPY_ENTITY = 'SurveyCollectingState';

export interface CollectingCopy {
  status: Survey['status'];
  publishedVersionId: string | null;
  rulesDigest: string;
}

/** A short digest of the targeting rules: equal rules, equal digest (rules are stored as this JSON). */
export function rulesDigest(rules: TargetingRules | null): string {
  return createHash('sha256')
    .update(JSON.stringify(rules ?? null))
    .digest('base64url')
    .slice(0, 16);
}

/** Every field of the copies, from the survey as a write leaves it. */
export function fullCopy(survey: Pick<Survey, 'status' | 'publishedVersionId' | 'targetingRules'>): CollectingCopy {
  return { status: survey.status, publishedVersionId: survey.publishedVersionId, rulesDigest: rulesDigest(survey.targetingRules) };
}

/** The copy a response checks: fixed by its id, so checks spread evenly over the copies. */
export function copyOf(responseId: string): number {
  return surveyResponseShardOf(responseId) % SURVEY_COLLECTING_COPIES;
}
