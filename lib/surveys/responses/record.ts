import { TABLE } from '../../platform/data/table.ts';
import { keyedHash } from '../../platform/keyed-hash.ts';
import { newSurveyId } from '../record.ts';
import { respondentEntity, responseTombstoneEntity, surveyResponseEntity } from './entities.ts';
import type { ResponseTombstone, SurveyResponse } from './schemas.ts';

const TOMBSTONE_ENTITY = 'SurveyResponseTombstone';
const RESPONDENT_ENTITY = 'SurveyRespondent';

/** Tombstones stay in the change feed this long (then TTL removes them). */
const TOMBSTONE_DAYS = 30;

/** UUIDv7, like survey ids: a survey's responses sort by creation. */
export const newResponseId = newSurveyId;

/** The keyed hashes a respondent is found by (erasure, the `respondent` filter). */
export function respondentHash(kind: 'externalId' | 'email', value: string): Promise<string> {
  // E-mail addresses are compared case-insensitively: erasing Ana@Example.com erases ana@example.com.
  return keyedHash('survey-respondent', `${kind}:${kind === 'email' ? value.trim().toLowerCase() : value}`);
}

export function respondentIndexItem(workspace: string, hash: string, surveyId: string, responseId: string): Record<string, unknown> {
  return { ...respondentEntity.keys.respondent(workspace, hash, surveyId, responseId), entity: RESPONDENT_ENTITY, surveyId, responseId };
}

/**
 * The stored item of a response, as the contract writes it. `movedFromStatus`: the response was moved
 * out of the legacy layout (store/layout.ts) and had this status there, so a stream reader can tell a move
 * from a new response (lib/surveys/stream.ts does not announce a finished response twice).
 */
export function responseItem(
  workspace: string,
  response: SurveyResponse,
  respondentHashes: string[],
  movedFromStatus?: SurveyResponse['status'],
): Record<string, unknown> {
  const item: Record<string, unknown> = {
    ...surveyResponseEntity.keys.response(workspace, response.surveyId, response.id),
    ...surveyResponseEntity.keys.feed(workspace, response.surveyId, response.updatedAt, response.id),
    entity: surveyResponseEntity.name,
    workspace,
    id: response.id,
    surveyId: response.surveyId,
    versionId: response.versionId,
    status: response.status,
    answers: response.answers,
    path: response.path,
    language: response.language,
    revision: response.revision,
    createdAt: response.createdAt,
    updatedAt: response.updatedAt,
  };
  if (response.ending !== null) item.ending = response.ending;
  if (response.respondent.externalId !== null) item.respondentExternalId = response.respondent.externalId;
  if (response.respondent.email !== null) item.respondentEmail = response.respondent.email;
  if (response.attributes) item.attributes = response.attributes;
  if (response.meta) item.meta = response.meta;
  if (response.finishedAt !== null) item.finishedAt = response.finishedAt;
  if (response.secondsToFinish !== null) item.secondsToFinish = response.secondsToFinish;
  // The sort keys of this response's respondent index items, so deleting it removes them too.
  if (respondentHashes.length > 0) item.respondentIndex = respondentHashes;
  if (movedFromStatus) item.movedFromStatus = movedFromStatus;
  return item;
}

export function toResponse(item: Record<string, unknown>): SurveyResponse {
  return {
    id: item.id as string,
    surveyId: item.surveyId as string,
    versionId: item.versionId as string,
    status: item.status as SurveyResponse['status'],
    answers: (item.answers as SurveyResponse['answers']) ?? {},
    path: (item.path as string[]) ?? [],
    ending: (item.ending as string | undefined) ?? null,
    language: item.language as SurveyResponse['language'],
    respondent: {
      externalId: (item.respondentExternalId as string | undefined) ?? null,
      email: (item.respondentEmail as string | undefined) ?? null,
    },
    attributes: (item.attributes as SurveyResponse['attributes']) ?? null,
    meta: (item.meta as SurveyResponse['meta']) ?? null,
    revision: item.revision as number,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    finishedAt: (item.finishedAt as string | undefined) ?? null,
    secondsToFinish: (item.secondsToFinish as number | undefined) ?? null,
  };
}

/** What the change feed keeps of a deleted response: its id and when, nothing about the respondent. */
export function tombstoneItem(workspace: string, surveyId: string, responseId: string, deletedAt: string): Record<string, unknown> {
  return {
    ...responseTombstoneEntity.keys.tombstone(workspace, surveyId, responseId),
    ...surveyResponseEntity.keys.feed(workspace, surveyId, deletedAt, responseId),
    entity: TOMBSTONE_ENTITY,
    workspace,
    id: responseId,
    surveyId,
    updatedAt: deletedAt,
    [TABLE.ttlAttribute]: Math.floor(Date.parse(deletedAt) / 1000) + TOMBSTONE_DAYS * 86_400,
  };
}

export function toTombstone(item: Record<string, unknown>): ResponseTombstone {
  return { id: item.id as string, deleted: true, deletedAt: item.updatedAt as string };
}

/** UTF-8 bytes of the answers as JSON: the 64 KB limit is on this. */
export function answersBytes(answers: Record<string, unknown>): number {
  return Buffer.byteLength(JSON.stringify(answers), 'utf8');
}
