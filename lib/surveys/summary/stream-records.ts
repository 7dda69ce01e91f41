/**
 * What a table-stream record of a survey response (contract §1) means to the summary: the response's
 * state after the write, or its removal. Only the attributes a summary counts are read; answer text
 * goes no further than `contributionOf`, which keeps numbers and option ids only.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { surveyResponseEntity } from '../responses/entities.ts';
import { isLegacyResponseKey } from '../responses/legacy-layout.ts';
import type { CountedResponse } from './counts.ts';

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
  const item = surveyResponseEntity.fromStreamImage(removed ? record.dynamodb?.OldImage : record.dynamodb?.NewImage);
  if (!item) return null;
  const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : '');
  const createdAt = text('createdAt');
  const base = {
    workspace: text('workspace'),
    surveyId: text('surveyId'),
    versionId: text('versionId'),
    responseId: text('id'),
    revision: Number(item.revision ?? 0),
    day: createdAt.slice(0, 10),
    sequenceNumber: record.dynamodb?.SequenceNumber ?? '',
    legacyRemoval: removed && isLegacyResponseKey(text('sk')),
  };
  if (removed) return { ...base, response: null };
  const status = item.status === 'finished' ? 'finished' : 'partial';
  const answers = (item.answers ?? {}) as Record<string, unknown>;
  const path = (item.path ?? []) as unknown[];
  const seconds = item.secondsToFinish;
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
