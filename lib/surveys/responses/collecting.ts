/**
 * What a response write needs of its survey (is it collecting, which version is published, its
 * targeting rules, the version's definition), kept per Lambda instance so a warm submit reads
 * nothing before its one transaction. Published versions never change, so a version's definition
 * is cached by its id for good. The survey's state can change at any time, so the cached state is
 * only a guess: the write's transaction checks it on one of the survey's collecting copies (the one
 * the response id hashes to, lib/surveys/store/collecting-copies.ts: status, published version and a
 * digest of the targeting rules), never on the survey item every submit would otherwise read. A failed
 * check hands back the copy it read: a survey that no longer collects is refused at once, one that
 * collects another version or other rules is read again.
 *
 * Surveys are read only through the surveys store's public functions (`findSurvey`, `findVersion`);
 * the write's check is built by the response store from what this decides (`ValidatedAgainst`).
 */
import type { SurveyDefinition } from '../engine/definition.ts';
import { surveyNotCollecting, surveyNotFound, versionNotFound } from '../errors.ts';
import type { Survey } from '../schemas.ts';
import { findSurvey } from '../store/surveys.ts';
import { findVersion } from '../store/versions.ts';
import type { ValidatedAgainst } from './store/responses.ts';

export interface CollectingSurvey extends ValidatedAgainst {
  surveyId: string;
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

function collectingOf(survey: Pick<Survey, 'id' | 'status' | 'publishedVersionId' | 'targetingRules'>): CollectingSurvey {
  if (survey.status !== 'published' || !survey.publishedVersionId) throw surveyNotCollecting(survey.status);
  return {
    surveyId: survey.id,
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
  const found = await findSurvey(workspace, surveyId);
  if (!found) throw surveyNotFound();
  const state = collectingOf(found.survey);
  remember(surveys, `${workspace}#${surveyId}`, state);
  return { ...state, cached: false };
}

/** Surveys this instance has seen exist. A survey is never deleted (DELETE archives it), so the answer never goes stale. */
const existing = new Map<string, true>();

/**
 * 404 unless the survey exists in this workspace, as for any record of another workspace. One read
 * the first time an instance meets a survey (none after it, or after a submit to it): a list of an
 * unknown survey's responses is a 404, not an empty page.
 */
export async function assertSurveyExists(workspace: string, surveyId: string): Promise<void> {
  const key = `${workspace}#${surveyId}`;
  if (existing.has(key) || surveys.has(key)) return;
  if (!(await findSurvey(workspace, surveyId))) throw surveyNotFound();
  remember(existing, key, true);
}

/** A published (or once published) version's definition: read once per instance. */
export async function versionDefinition(workspace: string, surveyId: string, versionId: string): Promise<SurveyDefinition> {
  const key = `${workspace}#${surveyId}#${versionId}`;
  const cached = definitions.get(key);
  if (cached) return cached;
  const version = await findVersion(workspace, surveyId, versionId);
  if (!version) throw versionNotFound();
  // Drafts change; only what was published is safe to keep (a response is only ever pinned to one).
  if (version.status !== 'draft') remember(definitions, key, version.definition);
  return version.definition;
}

/**
 * What a failed survey check says, given the collecting copy it read (undefined: absent, as the
 * survey is): the survey no longer collects (thrown: 404 or 409), or it collects another version or
 * other rules, and the submit reads it again. A copy without a status is a draft's, whose targeting
 * rules were changed before it was ever published.
 */
export function afterFailedCheck(current: Record<string, unknown> | undefined): void {
  if (!current) throw surveyNotFound();
  if (current.status !== 'published') throw surveyNotCollecting(typeof current.status === 'string' ? current.status : 'draft');
}
