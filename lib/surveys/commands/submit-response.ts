/**
 * A new response pinned to the version published now. The answers are replayed against that version
 * (responses/rules.ts) on the survey's state as this instance last saw it (collecting.ts); the store
 * writes in one transaction that holds if the survey is still as validated against. A refusal or a
 * failed check on a cached guess learns the current state and tries again, a few times.
 */
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { BadRequestError } from '../../platform/errors.ts';
import {
  afterFailedCheck,
  type CollectingSurvey,
  collectingCheck,
  collectingSurvey,
  refreshFromCheck,
  versionDefinition,
} from '../responses/collecting.ts';
import { newResponseId, respondentHash } from '../responses/record.ts';
import { assertAnswersFit, assertTargeted, replayedOrThrow } from '../responses/rules.ts';
import type { SubmitResponseBody, SurveyResponse } from '../responses/schemas.ts';
import { writeNewResponse } from '../responses/store/responses.ts';

export type { SurveyResponse };

/** Tries of a submit whose cached survey state turned out stale (each one learns the current state). */
const SUBMIT_ATTEMPTS = 4;

export async function submitResponse(
  workspace: string,
  surveyId: string,
  body: SubmitResponseBody,
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: SurveyResponse; replayed: boolean }> {
  assertAnswersFit(body.answers);
  const hashes = await hashesOf(body.respondent);
  let state: CollectingSurvey = await collectingSurvey(workspace, surveyId);
  for (let attempt = 1; ; attempt++) {
    let response: SurveyResponse;
    try {
      response = await validResponse(workspace, state, body);
    } catch (error) {
      // Refused on a cached guess (a newer version or new targeting rules may be published): ask again.
      if (!(error instanceof BadRequestError) || !state.cached) throw error;
      state = await collectingSurvey(workspace, surveyId, true);
      response = await validResponse(workspace, state, body);
    }
    const check = collectingCheck(workspace, state);
    const written = await writeNewResponse(workspace, check, response, hashes, idempotency);
    if (!('surveyChanged' in written)) return written;
    if (attempt >= SUBMIT_ATTEMPTS) throw new Error(`The survey's check failed ${attempt} times on a survey that still collects`);
    const seen = written.surveyChanged;
    // Throws when the survey no longer collects; otherwise learn what to check and try again.
    afterFailedCheck(workspace, surveyId, check.on, seen);
    if (check.on === 'survey') state = refreshFromCheck(workspace, surveyId, seen);
    else if (typeof seen?.status === 'string') state = await collectingSurvey(workspace, surveyId, true);
  }
}

async function hashesOf(respondent: SubmitResponseBody['respondent']): Promise<string[]> {
  const hashes: Promise<string>[] = [];
  if (respondent?.externalId) hashes.push(respondentHash('externalId', respondent.externalId));
  if (respondent?.email) hashes.push(respondentHash('email', respondent.email));
  return Promise.all(hashes);
}

/** The response these answers make on the survey as `state` says it is, or the reason it is refused. */
async function validResponse(workspace: string, state: CollectingSurvey, body: SubmitResponseBody): Promise<SurveyResponse> {
  const definition = await versionDefinition(workspace, state.surveyId, state.publishedVersionId);
  assertTargeted(state.targetingRules, body.respondent?.attributes);
  return newResponse(state, body, replayedOrThrow(definition, body.answers, body.finished ?? true));
}

function newResponse(
  state: CollectingSurvey,
  body: SubmitResponseBody,
  replayed: { path: string[]; ending: string | null },
): SurveyResponse {
  const now = new Date().toISOString();
  const finished = body.finished ?? true;
  return {
    id: newResponseId(),
    surveyId: state.surveyId,
    versionId: state.publishedVersionId,
    status: finished ? 'finished' : 'partial',
    answers: body.answers,
    path: replayed.path,
    ending: replayed.ending,
    language: body.language ?? 'en',
    respondent: { externalId: body.respondent?.externalId ?? null, email: body.respondent?.email ?? null },
    attributes: body.respondent?.attributes ?? null,
    meta: body.meta ?? null,
    revision: 1,
    createdAt: now,
    updatedAt: now,
    finishedAt: finished ? now : null,
    secondsToFinish: finished ? 0 : null,
  };
}
