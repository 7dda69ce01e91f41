/**
 * What other areas may learn about the surveys they refer to: the questions journeys' metric cells
 * bind (contract §3): which surveys exist in the workspace, whether they are archived, and what type
 * and scale each question has in the versions that matter; and the surveys journeys' `links` cells
 * name: whether each exists and is archived. Built on the store's public reads only (findSurvey,
 * findVersion, findSurveyStatuses), so the store's layout stays its own.
 */
import type { Question } from './engine/definition.ts';
import { findSurvey, findSurveyStatuses } from './store/surveys.ts';
import { findVersion } from './store/versions.ts';

/** The numeric kinds a metric can be computed from; anything else is `other`. */
export type QuestionKind = 'nps' | 'rating' | 'csat' | 'ces' | 'number' | 'other';

export interface QuestionFacts {
  kind: QuestionKind;
  /** The answer range of a numeric question (nps 0–10, rating 1–scale, csat 1–5, ces 1–7). */
  scale?: { min: number; max: number };
}

interface VersionQuestions {
  status: 'draft' | 'published' | 'superseded';
  questions: ReadonlyMap<string, QuestionFacts>;
}

export interface SurveyQuestionFacts {
  archived: boolean;
  publishedVersionId: string | null;
  /** The newest version (by number), what an unpinned binding is checked against when none is published. */
  latestVersionId: string | null;
  /** The versions read: the published one, the newest one, and every one a binding pins (null: no such version). */
  versions: ReadonlyMap<string, VersionQuestions | null>;
}

/** What a question means for a metric: its kind and answer range. */
function questionFacts(question: Question): QuestionFacts {
  switch (question.type) {
    case 'nps':
      return { kind: 'nps', scale: { min: 0, max: 10 } };
    case 'rating':
      return { kind: 'rating', scale: { min: 1, max: question.scale } };
    case 'csat':
      return { kind: 'csat', scale: { min: 1, max: 5 } };
    case 'ces':
      return { kind: 'ces', scale: { min: 1, max: 7 } };
    case 'openText':
      return question.inputType === 'number' ? { kind: 'number' } : { kind: 'other' };
    default:
      return { kind: 'other' };
  }
}

/**
 * Facts about each survey named (a missing entry: no such survey in this workspace, which is how
 * another workspace's survey looks too). Round trips: one BatchGetItem per distinct survey, all in
 * parallel, then one GetItem per distinct version needed, all in parallel: two rounds whatever the
 * number of bindings.
 */
export async function lookUpSurveyQuestions(
  workspace: string,
  wanted: readonly { surveyId: string; versionId?: string | undefined }[],
): Promise<Map<string, SurveyQuestionFacts>> {
  const pinned = new Map<string, Set<string>>();
  for (const { surveyId, versionId } of wanted) {
    const versions = pinned.get(surveyId) ?? new Set<string>();
    if (versionId !== undefined) versions.add(versionId);
    pinned.set(surveyId, versions);
  }
  const surveys = await Promise.all([...pinned.keys()].map(async (surveyId) => [surveyId, await findSurvey(workspace, surveyId)] as const));
  const found = new Map<string, SurveyQuestionFacts>();
  await Promise.all(
    surveys.map(async ([surveyId, read]) => {
      if (!read) return;
      const latest = read.versions.reduce<(typeof read.versions)[number] | undefined>(
        (newest, version) => (!newest || version.number > newest.number ? version : newest),
        undefined,
      );
      const needed = new Set(pinned.get(surveyId));
      if (read.survey.publishedVersionId) needed.add(read.survey.publishedVersionId);
      if (latest) needed.add(latest.id);
      const versions = new Map<string, VersionQuestions | null>();
      await Promise.all(
        [...needed].map(async (versionId) => {
          const version = await findVersion(workspace, surveyId, versionId);
          versions.set(
            versionId,
            version
              ? {
                  status: version.status,
                  questions: new Map(version.definition.questions.map((question) => [question.id, questionFacts(question)])),
                }
              : null,
          );
        }),
      );
      found.set(surveyId, {
        archived: read.survey.status === 'archived',
        publishedVersionId: read.survey.publishedVersionId,
        latestVersionId: latest?.id ?? null,
        versions,
      });
    }),
  );
  return found;
}

/** What a link to a survey may say of it. */
export interface LinkedSurveyFacts {
  archived: boolean;
}

/**
 * Facts about each linked survey that exists (a missing entry: no such survey in this workspace).
 * One round trip: a BatchGetItem of the distinct surveys' items (one per 100), projected to their status.
 */
export async function lookUpLinkedSurveys(workspace: string, surveyIds: readonly string[]): Promise<Map<string, LinkedSurveyFacts>> {
  const statuses = await findSurveyStatuses(workspace, [...new Set(surveyIds)]);
  return new Map([...statuses].map(([id, status]) => [id, { archived: status === 'archived' }]));
}
