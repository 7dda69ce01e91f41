/** Stream records of survey responses: which mean `survey.response.finished`, and that nothing personal leaves. */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { eventBody, eventFromStreamRecord } from '../../lib/webhooks/events.ts';
import { ideaAndResponseChanges } from '../../lib/webhooks/pipeline.ts';
import { matchesFilter } from '../../local/event-source-mappings.ts';

type Image = Record<string, unknown>;

function response(status: 'partial' | 'finished', entity = 'SurveyResponse'): Image {
  return {
    pk: { S: 'WS#acme' },
    sk: { S: 'SURVEYRESPONSE#s1#r1' },
    entity: { S: entity },
    workspace: { S: 'acme' },
    id: { S: 'r1' },
    surveyId: { S: 's1' },
    versionId: { S: 'v1' },
    status: { S: status },
    answers: { M: { why: { S: 'My manager ignores me' } } },
    respondentEmail: { S: 'rania@example.com' },
    ...(status === 'finished' ? { finishedAt: { S: '2026-03-02T09:30:00.000Z' } } : {}),
  };
}

function record(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', images: { old?: Image; new?: Image }): DynamoDBRecord {
  return {
    eventID: 'e1',
    eventName,
    dynamodb: {
      ApproximateCreationDateTime: 1_767_225_600,
      SequenceNumber: '7',
      OldImage: images.old as never,
      NewImage: images.new as never,
    },
  };
}

const passesFilter = (r: DynamoDBRecord) => ideaAndResponseChanges.filters.some((pattern) => matchesFilter(pattern, r));

describe('survey.response.finished from the stream', () => {
  it('is a response created finished, or one a continuation finished', () => {
    for (const r of [
      record('INSERT', { new: response('finished') }),
      record('MODIFY', { old: response('partial'), new: response('finished') }),
    ]) {
      expect(passesFilter(r)).toBe(true);
      const event = eventFromStreamRecord(r);
      expect(event).toMatchObject({
        type: 'survey.response.finished',
        timestamp: '2026-03-02T09:30:00.000Z',
        data: { workspace: 'acme', surveyId: 's1', versionId: 'v1', responseId: 'r1' },
      });
      const body = eventBody(event!);
      expect(body).not.toContain('rania');
      expect(body).not.toContain('manager');
    }
  });

  it('is not announced again when migration 002 moves a finished response, and is when a continuation moves and finishes one', () => {
    const moved = (status: 'partial' | 'finished', from: 'partial' | 'finished') => ({
      ...response(status),
      sk: { S: 'SURVEYRESP#s1#07#r1' },
      movedFromStatus: { S: from },
    });
    expect(eventFromStreamRecord(record('INSERT', { new: moved('finished', 'finished') }))).toBeNull();
    expect(eventFromStreamRecord(record('INSERT', { new: moved('partial', 'partial') }))).toBeNull();
    expect(eventFromStreamRecord(record('INSERT', { new: moved('finished', 'partial') }))).toMatchObject({
      type: 'survey.response.finished',
      data: { responseId: 'r1' },
    });
    // The legacy item's removal is no event either (the aggregator reads it, to tell a move from a delete).
    expect(eventFromStreamRecord(record('REMOVE', { old: response('finished') }))).toBeNull();
  });

  it('is no webhook event for partial writes, deletions, tombstones and counters', () => {
    const ignored = [
      record('INSERT', { new: response('partial') }),
      record('MODIFY', { old: response('partial'), new: response('partial') }),
      record('REMOVE', { old: response('finished') }),
      record('INSERT', { new: response('finished', 'SurveyResponseTombstone') }),
      record('INSERT', { new: { entity: { S: 'SurveyResponseCounter' }, surveyId: { S: 's1' } } }),
    ];
    for (const r of ignored) expect(eventFromStreamRecord(r)).toBeNull();
    // They still reach the function: the survey summary's aggregator shares this reader and counts
    // partial responses and deletions (lib/surveys/summary/); only counters and tombstones stay away.
    expect(passesFilter(record('INSERT', { new: response('partial') }))).toBe(true);
    expect(passesFilter(record('REMOVE', { old: response('finished') }))).toBe(true);
    expect(passesFilter(record('INSERT', { new: { entity: { S: 'SurveyResponseCounter' }, surveyId: { S: 's1' } } }))).toBe(false);
    expect(passesFilter(record('INSERT', { new: response('finished', 'SurveyResponseTombstone') }))).toBe(false);
  });
});
