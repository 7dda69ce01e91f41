/**
 * What a response write needs of its survey (is it collecting, which version is published, its
 * targeting rules, the version's definition), kept per Lambda instance so a warm submit reads
 * nothing before its one transaction. Published versions never change, so a version's definition
 * is cached by its id for good. The survey's state can change at any time, so the cached state is
 * only a guess: the write's transaction checks it on one of the survey's collecting copies (the one
 * the response id hashes to, lib/surveys/store/collecting-copies.ts: status, published version and a
 * digest of the targeting rules), never on the survey item every submit would otherwise read. A failed
 * check hands back the copy it read: a survey that no longer collects is refused at once, one that
 * collects another version or other rules is read again. A survey whose copies are not complete yet
 * (last changed before migration 002) is checked on the survey item itself, as before, and its copies
 * are tried again after a minute.
 *
 * Surveys are read only through the surveys store's public functions (`findSurvey`, `findVersion`);
 * the write's check is built by the response store from what this decides (`SurveyCheck`).
 */
import type { SurveyDefinition } from '../engine/definition.ts';
import type { TargetingRules } from '../engine/targeting.ts';
import { surveyNotCollecting, surveyNotFound, versionNotFound } from '../errors.ts';
import { toSurvey } from '../record.ts';
import type { Survey } from '../schemas.ts';
import { findSurvey } from '../store/surveys.ts';
import { findVersion } from '../store/versions.ts';
import type { CheckedItem, SurveyCheck } from './store/responses.ts';

export interface CollectingSurvey {
  surveyId: string;
  /** The survey's `version` counter when read: any change to the survey moves it (checked on the survey item only). */
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
  const found = await findSurvey(workspace, surveyId);
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

/** Surveys whose copies proved incomplete, until when this instance checks their survey item instead. */
const incompleteCopies = new Map<string, number>();
const RETRY_COPIES_MS = 60_000;

function checksSurveyItem(workspace: string, surveyId: string): boolean {
  const until = incompleteCopies.get(`${workspace}#${surveyId}`);
  if (until === undefined) return false;
  if (Date.now() < until) return true;
  incompleteCopies.delete(`${workspace}#${surveyId}`);
  return false;
}

/** What a new response's write checks: the survey still collects as `state` says, on one of its copies or on the survey item. */
export function collectingCheck(workspace: string, state: CollectingSurvey): SurveyCheck {
  const { publishedVersionId, targetingRules, surveyVersion } = state;
  return {
    on: checksSurveyItem(workspace, state.surveyId) ? 'survey' : 'copy',
    validatedAgainst: { publishedVersionId, targetingRules, surveyVersion },
  };
}

/** What a continuation's write checks: the survey still collects (its pinned version may be an older one). */
export function stillCollectingCheck(workspace: string, surveyId: string): SurveyCheck {
  return { on: checksSurveyItem(workspace, surveyId) ? 'survey' : 'copy' };
}

/**
 * What a failed check of `checked` says, given the item it read (undefined: absent): the survey no
 * longer collects (thrown: 404 or 409), or the write should try again, having learnt what to check next.
 */
export function afterFailedCheck(
  workspace: string,
  surveyId: string,
  checked: CheckedItem,
  current: Record<string, unknown> | undefined,
): void {
  if (checked === 'survey') {
    if (!current) throw surveyNotFound();
    if (current.status !== 'published') throw surveyNotCollecting(String(current.status));
    return;
  }
  if (typeof current?.status !== 'string') {
    // No complete copy yet (a survey last changed before migration 002): its survey item decides.
    incompleteCopies.set(`${workspace}#${surveyId}`, Date.now() + RETRY_COPIES_MS);
    return;
  }
  if (current.status !== 'published') throw surveyNotCollecting(current.status);
}
