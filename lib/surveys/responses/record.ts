/**
 * Response items <-> API records, as the survey-responses contract fixes them (the `summary` branch
 * reads these items from the table stream): one item per response with `entity: 'SurveyResponse'`,
 * the answers as a map, `path`, `ending` only once reached, `revision` 1 on create and +1 per write.
 * A deleted response leaves a `SurveyResponseTombstone` with no answers and no respondent.
 */
import { createHash } from 'node:crypto';
import { keys } from '../../platform/data/keys.ts';
import { TABLE } from '../../platform/data/table.ts';
import { keyedHash } from '../../platform/keyed-hash.ts';
import { newSurveyId } from '../record.ts';
import { RESPONSE_ENTITY } from './entity.ts';
import type { ResponseTombstone, SurveyResponse } from './schemas.ts';

const TOMBSTONE_ENTITY = 'SurveyResponseTombstone';
const RESPONDENT_ENTITY = 'SurveyRespondent';
export const COUNTER_ENTITY = 'SurveyResponseCounter';

/** Tombstones stay in the change feed this long (then TTL removes them). */
const TOMBSTONE_DAYS = 30;
/**
 * Counter items per survey: a submit adds to one of them, chosen by the response id, so 1,000
 * submits a second to one survey spread over 16 items (DynamoDB takes about 1,000 writes a second
 * per partition and far fewer transactions per item before they conflict).
 */
export const COUNTER_SHARDS = 16;

/** UUIDv7, like survey ids: a survey's responses sort by creation. */
export const newResponseId = newSurveyId;

export function counterShardOf(responseId: string): number {
  return (createHash('sha256').update(responseId).digest()[0] as number) % COUNTER_SHARDS;
}

/** The counter attribute of a (version, status) pair; the list's `total` sums the ones its filters match. */
export function counterAttribute(versionId: string, status: SurveyResponse['status']): string {
  return `n_${versionId.replaceAll('-', '')}_${status}`;
}

export function parseCounterAttribute(name: string): { versionHex: string; status: string } | null {
  const match = /^n_([0-9a-f]{32})_(partial|finished)$/.exec(name);
  return match ? { versionHex: match[1] as string, status: match[2] as string } : null;
}

/** The keyed hashes a respondent is found by (erasure, the `respondent` filter). */
export function respondentHash(kind: 'externalId' | 'email', value: string): Promise<string> {
  // E-mail addresses are compared case-insensitively: erasing Ana@Example.com erases ana@example.com.
  return keyedHash('survey-respondent', `${kind}:${kind === 'email' ? value.trim().toLowerCase() : value}`);
}

export function respondentIndexItem(workspace: string, hash: string, surveyId: string, responseId: string): Record<string, unknown> {
  return { ...keys.surveyRespondent(workspace, hash, surveyId, responseId), entity: RESPONDENT_ENTITY, surveyId, responseId };
}

/** The stored item of a response, as the contract writes it. */
export function responseItem(workspace: string, response: SurveyResponse, respondentHashes: string[]): Record<string, unknown> {
  const item: Record<string, unknown> = {
    ...keys.surveyResponse(workspace, response.surveyId, response.id),
    ...keys.surveyResponseFeed(workspace, response.surveyId, response.updatedAt, response.id),
    entity: RESPONSE_ENTITY,
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
    ...keys.surveyResponseTombstone(workspace, surveyId, responseId),
    ...keys.surveyResponseFeed(workspace, surveyId, deletedAt, responseId),
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
