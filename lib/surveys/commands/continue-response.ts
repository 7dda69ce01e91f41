/**
 * A continuation of a partial response: reads it where it is stored, merges the answers and replays
 * them against the version the response is pinned to (even after a newer one is published), then one
 * transaction conditional on the response as read and on the survey still collecting. A response the
 * migration moved (or changed) in between is read again, a few times at most. With `If-Match: *`
 * ("whatever revision is there") a continuation that finds another one landed first is merged onto
 * what that one left, not refused: each retry starts from the response the failed write saw, so it
 * costs one transaction, not a read and a transaction. Only a response finished meanwhile refuses it
 * (409 `response_finished`: a finished response never changes again).
 */
import { conflictBackoff, meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { responseFinished, responseNotFound } from '../errors.ts';
import { afterFailedCheck, stillCollectingCheck, versionDefinition } from '../responses/collecting.ts';
import { toResponse } from '../responses/record.ts';
import { assertAnswersFit, mergeAnswers, replayedOrThrow, secondsBetween } from '../responses/rules.ts';
import type { ContinueResponseBody, SurveyResponse } from '../responses/schemas.ts';
import { inLegacyLayout, MOVE_ATTEMPTS, readResponseItem, writeContinuation } from '../responses/store/responses.ts';

export async function continueResponse(
  workspace: string,
  surveyId: string,
  responseId: string,
  body: ContinueResponseBody,
  precondition: VersionPrecondition,
): Promise<SurveyResponse> {
  for (let attempt = 1; ; attempt++) {
    const item = await readResponseItem(workspace, surveyId, responseId);
    const tried = await tryContinue(workspace, item, body, precondition);
    if (tried.done) return tried.response;
    if (attempt >= MOVE_ATTEMPTS) throw new VersionConflictError(tried.revision);
  }
}

/**
 * Tries of an `If-Match: *` continuation that other continuations of the same response keep landing
 * before: each lost race means one of them landed, so ten sent at once all land within ten tries;
 * spread by jittered waits, far fewer.
 */
const ANY_REVISION_ATTEMPTS = 16;

/** One try on the item as read: done, or the response moved or changed meanwhile and must be read again. */
async function tryContinue(
  workspace: string,
  read: Record<string, unknown>,
  body: ContinueResponseBody,
  precondition: VersionPrecondition,
): Promise<{ done: true; response: SurveyResponse } | { done: false; revision: number }> {
  let item = read;
  let current = toResponse(item);
  let next = await continued(workspace, current, body, precondition);
  const legacy = inLegacyLayout(item);
  let rebased = 0;
  let surveyChecks = 0;
  for (;;) {
    const check = stillCollectingCheck(workspace, current.surveyId);
    const written = await writeContinuation(workspace, item, next, check);
    if ('written' in written) return { done: true, response: next };
    if ('surveyChanged' in written) {
      // Throws when the survey no longer collects; otherwise it learnt what to check next.
      afterFailedCheck(workspace, current.surveyId, check.on, written.surveyChanged);
      if (++surveyChecks < MOVE_ATTEMPTS) continue;
      throw new Error(`The survey's check failed ${surveyChecks} times on a survey that still collects`);
    }
    // Moved or changed by the migration (or by another continuation) since it was read: read again.
    if (legacy) return { done: false, revision: current.revision };
    const seen = written.responseChanged;
    if (!seen) throw responseNotFound();
    if (seen.status === 'finished') throw responseFinished();
    const revision = Number(seen.revision ?? 0);
    // `*` (or no If-Match) pins no revision: merge onto what the continuation that landed first left.
    if (pinsRevision(precondition) || ++rebased >= ANY_REVISION_ATTEMPTS) throw new VersionConflictError(revision);
    await conflictBackoff(rebased);
    item = seen;
    current = toResponse(item);
    next = await continued(workspace, current, body, precondition);
  }
}

/** Whether the If-Match names revisions (a lost race is then a 409), rather than `*`. */
const pinsRevision = (precondition: VersionPrecondition) => precondition !== undefined && !precondition.anyVersion;

/** The response after this continuation, or why it is refused (stale If-Match, already finished, too large, invalid answers). */
async function continued(
  workspace: string,
  current: SurveyResponse,
  body: ContinueResponseBody,
  precondition: VersionPrecondition,
): Promise<SurveyResponse> {
  if (!meetsPrecondition(precondition, current.revision)) throw new VersionConflictError(current.revision);
  if (current.status === 'finished') throw responseFinished();
  const answers = mergeAnswers(current.answers, body.answers);
  assertAnswersFit(answers);
  const finished = body.finished === true;
  const definition = await versionDefinition(workspace, current.surveyId, current.versionId);
  const replayed = replayedOrThrow(definition, answers, finished);
  const now = new Date().toISOString();
  return {
    ...current,
    answers,
    path: replayed.path,
    ending: replayed.ending,
    status: finished ? 'finished' : 'partial',
    revision: current.revision + 1,
    updatedAt: now,
    finishedAt: finished ? now : null,
    secondsToFinish: finished ? secondsBetween(current.createdAt, now) : null,
  };
}
