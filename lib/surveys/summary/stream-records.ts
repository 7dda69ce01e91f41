/**
 * What a table-stream record of a survey response (contract §1) means to the summary: the response's
 * state after the write, or its removal. Only the attributes a summary counts are read; answer text
 * goes no further than `contributionOf`, which keeps numbers and option ids only.
 */
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { isLegacyResponseKey } from '../responses/legacy-layout.ts';
import type { CountedResponse } from './counts.ts';

const RESPONSE_ENTITY = 'SurveyResponse';

type Image = Record<string, AttributeValue>;

/** A stream image's attribute as plain JSON (the shapes a response holds: S, N, BOOL, NULL, L, M, SS, NS). */
function plain(value: AttributeValue | undefined): unknown {
  if (!value) return undefined;
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL) return null;
  if (value.L) return value.L.map((item) => plain(item as AttributeValue));
  if (value.SS) return [...value.SS];
  if (value.NS) return value.NS.map(Number);
  if (value.M) {
    const map: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value.M)) map[name] = plain(item as AttributeValue);
    return map;
  }
  return undefined;
}

export interface ResponseRecord {
  workspace: string;
  surveyId: string;
  versionId: string;
  responseId: string;
  revision: number;
  /** UTC date the response was started (its createdAt): the day it is counted on. */
  day: string;
  /** The stored response after the write; null when the record removed it. */
  response: CountedResponse | null;
  /**
   * A removal of an item in the layout before migration 002: either the response was deleted, or it
   * was moved to its new key (by the migration, or by a continuation), which is no removal at all.
   * The aggregator tells the two apart by whether the response exists at its new key.
   */
  legacyRemoval: boolean;
  sequenceNumber: string;
}

/** The response a record describes, or null for any other item (tombstones included). */
export function responseRecordOf(record: DynamoDBRecord): ResponseRecord | null {
  const removed = record.eventName === 'REMOVE';
  const image = (removed ? record.dynamodb?.OldImage : record.dynamodb?.NewImage) as Image | undefined;
  if (!image || image.entity?.S !== RESPONSE_ENTITY) return null;
  const createdAt = image.createdAt?.S ?? '';
  const base = {
    workspace: image.workspace?.S ?? '',
    surveyId: image.surveyId?.S ?? '',
    versionId: image.versionId?.S ?? '',
    responseId: image.id?.S ?? '',
    revision: Number(image.revision?.N ?? 0),
    day: createdAt.slice(0, 10),
    sequenceNumber: record.dynamodb?.SequenceNumber ?? '',
    legacyRemoval: removed && isLegacyResponseKey(image.sk?.S ?? ''),
  };
  if (removed) return { ...base, response: null };
  const status = image.status?.S === 'finished' ? 'finished' : 'partial';
  const answers = (plain(image.answers) ?? {}) as Record<string, unknown>;
  const path = (plain(image.path) ?? []) as unknown[];
  const seconds = plain(image.secondsToFinish);
  return {
    ...base,
    response: {
      status,
      answers,
      path: path.filter((id): id is string => typeof id === 'string'),
      ...(typeof seconds === 'number' ? { secondsToFinish: seconds } : {}),
    },
  };
}
