/**
 * What a response write needs of its survey (is it collecting, which version is published, its
 * targeting rules, the version's definition), kept per Lambda instance so a warm submit reads
 * nothing before its one transaction. Published versions never change, so a version's definition
 * is cached by its id for good. The survey's state can change at any time, so the cached state is
 * only a guess: the write's transaction checks it (ConditionCheck on the survey's status, published
 * version and `version` counter), and a failed check hands back the current survey item, from which
 * the cache is refreshed and the write tried again.
 *
 * Surveys are read only through the surveys store's public functions (`getSurvey`, `getVersion`).
 */
import { tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import { ConflictError } from '../../platform/errors.ts';
import type { SurveyDefinition } from '../engine/definition.ts';
import type { TargetingRules } from '../engine/targeting.ts';
import { toSurvey } from '../record.ts';
import type { Survey } from '../schemas.ts';
import { getSurvey, getVersion, surveyNotFound, versionNotFound } from '../store.ts';

export interface CollectingSurvey {
  surveyId: string;
  /** The survey's `version` counter when read: any change to the survey moves it. */
  surveyVersion: number;
  publishedVersionId: string;
  targetingRules: TargetingRules | null;
  /** True when this is the instance's remembered guess rather than a read just now. */
  cached?: boolean;
}

/** Enough for the warm instances of a busy workspace; the oldest entry goes first. */
const CACHE_LIMIT = 500;
const surveys = new Map<string, CollectingSurvey>();
const definitions = new Map<string, SurveyDefinition>();

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
}

export function surveyNotCollecting(status: string): ConflictError {
  return new ConflictError('survey_not_collecting', `The survey is ${status}; only a published survey collects responses`);
}

function collectingOf(survey: Pick<Survey, 'id' | 'status' | 'version' | 'publishedVersionId' | 'targetingRules'>): CollectingSurvey {
  if (survey.status !== 'published' || !survey.publishedVersionId) throw surveyNotCollecting(survey.status);
  return {
    surveyId: survey.id,
    surveyVersion: survey.version,
    publishedVersionId: survey.publishedVersionId,
    targetingRules: survey.targetingRules,
  };
}

/**
 * The survey as last seen collecting by this instance (`cached`), else read (404, 409
 * `survey_not_collecting`). A cached state may be stale: a caller that refuses a request because
 * of it asks again with `fresh`.
 */
export async function collectingSurvey(workspace: string, surveyId: string, fresh = false): Promise<CollectingSurvey> {
  const cached = fresh ? undefined : surveys.get(`${workspace}#${surveyId}`);
  if (cached) return { ...cached, cached: true };
  const found = await getSurvey(workspace, surveyId);
  if (!found) throw surveyNotFound();
  const state = collectingOf(found.survey);
  remember(surveys, `${workspace}#${surveyId}`, state);
  return { ...state, cached: false };
}

/**
 * After the write's survey check failed: forget the guess and take what the check saw (the current
 * survey item, from ReturnValuesOnConditionCheckFailure), throwing when it no longer collects.
 */
export function refreshFromCheck(workspace: string, surveyId: string, current: Record<string, unknown> | undefined): CollectingSurvey {
  surveys.delete(`${workspace}#${surveyId}`);
  if (!current) throw surveyNotFound();
  const state = collectingOf(toSurvey(current));
  remember(surveys, `${workspace}#${surveyId}`, state);
  return state;
}

/** A published (or once published) version's definition: read once per instance. */
export async function versionDefinition(workspace: string, surveyId: string, versionId: string): Promise<SurveyDefinition> {
  const key = `${workspace}#${surveyId}#${versionId}`;
  const cached = definitions.get(key);
  if (cached) return cached;
  const version = await getVersion(workspace, surveyId, versionId);
  if (!version) throw versionNotFound();
  // Drafts change; only what was published is safe to keep (a response is only ever pinned to one).
  if (version.status !== 'draft') remember(definitions, key, version.definition);
  return version.definition;
}

/** The transaction part that holds a new response to the survey state it was validated against. */
export function collectingCheck(workspace: string, state: CollectingSurvey) {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: keys.survey(workspace, state.surveyId),
      ConditionExpression: '#status = :published AND publishedVersionId = :versionId AND #version = :surveyVersion',
      ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
      ExpressionAttributeValues: {
        ':published': 'published',
        ':versionId': state.publishedVersionId,
        ':surveyVersion': state.surveyVersion,
      },
    },
  };
}

/** The transaction part of a continuation: the survey still collects (its pinned version may be an older one). */
export function stillCollectingCheck(workspace: string, surveyId: string) {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: keys.survey(workspace, surveyId),
      ConditionExpression: '#status = :published',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':published': 'published' },
    },
  };
}
