/**
 * The rules a response write must pass before anything is stored: the size of the answers, the
 * engine's replay of the survey (lib/surveys/engine/response.ts), the survey's targeting rules.
 */
import { ApiError, BadRequestError } from '../../platform/errors.ts';
import type { SurveyDefinition } from '../engine/definition.ts';
import { type ReplayedResponse, replayResponse } from '../engine/response.ts';
import { matchesTargeting, type RespondentAttributes, type TargetingRules } from '../engine/targeting.ts';
import { answersBytes } from './record.ts';
import { ANSWERS_MAX_BYTES } from './schemas.ts';

export function assertAnswersFit(answers: Record<string, unknown>): void {
  if (answersBytes(answers) > ANSWERS_MAX_BYTES) {
    throw new ApiError(413, 'response_too_large', `The answers are over ${ANSWERS_MAX_BYTES / 1024} KB of UTF-8 JSON`);
  }
}

/** The path and ending these answers produce, or 400 `invalid_answers` with every issue found. */
export function replayedOrThrow(definition: SurveyDefinition, answers: Record<string, unknown>, finished: boolean): ReplayedResponse {
  const replayed = replayResponse(definition, answers, finished);
  if (replayed.issues.length > 0) {
    const first = replayed.issues[0];
    throw new BadRequestError(
      'invalid_answers',
      `${replayed.issues.length} answer issue(s), first at ${first?.path}: ${first?.message}`,
      undefined,
      { issues: replayed.issues },
    );
  }
  return replayed;
}

export function assertTargeted(rules: TargetingRules | null, attributes: RespondentAttributes | undefined): void {
  if (!rules || !attributes) return;
  if (!matchesTargeting(rules, attributes)) {
    throw new BadRequestError('respondent_not_targeted', "The respondent's attributes do not meet the survey's targeting rules");
  }
}

/** Whole seconds from start to finish (a response started and finished in one submit took 0). */
export function secondsBetween(startedAt: string, finishedAt: string): number {
  return Math.max(0, Math.round((Date.parse(finishedAt) - Date.parse(startedAt)) / 1000));
}

/** The stored answers with a continuation's merged in; `null` removes one. */
export function mergeAnswers<V>(stored: Record<string, V>, patch: Record<string, V | null> | undefined): Record<string, V> {
  const merged: Record<string, V> = { ...stored };
  for (const [questionId, value] of Object.entries(patch ?? {})) {
    if (value === null) delete merged[questionId];
    else merged[questionId] = value;
  }
  return merged;
}
