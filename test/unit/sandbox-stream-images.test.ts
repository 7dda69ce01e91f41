/**
 * DynamoDB Local's stream writes an empty map attribute as `{}` where AWS writes `{"M":{}}`: the
 * sandbox's stream mapping hands functions the image AWS would, so a partial response without
 * answers reaches the summary aggregator (it used to stop the shard: "No value defined: {}").
 */
import type { _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { responseRecordOf } from '../../lib/surveys/summary/stream-records.ts';
import { toLambdaRecord } from '../../local/event-source-mappings.ts';

const ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/x';

/** A record as DynamoDB Local's GetRecords answers it (the SDK keeps its `{}`). */
function localRecord(image: Record<string, unknown>): StreamRecord {
  return {
    eventID: '1',
    eventName: 'INSERT',
    dynamodb: { Keys: { pk: { S: 'a' } }, NewImage: image as never, SequenceNumber: '100', StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}

describe('stream images in the sandbox', () => {
  it('writes an empty map as AWS does, at any depth, and leaves every other attribute as it came', () => {
    const record = toLambdaRecord(
      localRecord({
        pk: { S: 'a' },
        answers: {},
        meta: { M: { tags: {}, list: { L: [{}, { S: 'x' }] } } },
        path: { L: [] },
        n: { N: '1' },
      }),
      ARN,
    );
    expect(record.dynamodb?.NewImage).toEqual({
      pk: { S: 'a' },
      answers: { M: {} },
      meta: { M: { tags: { M: {} }, list: { L: [{ M: {} }, { S: 'x' }] } } },
      path: { L: [] },
      n: { N: '1' },
    });
    expect(unmarshall(record.dynamodb?.NewImage as never)).toEqual({
      pk: 'a',
      answers: {},
      meta: { tags: {}, list: [{}, 'x'] },
      path: [],
      n: 1,
    });
  });

  it('hands the summary a partial response without answers', () => {
    const record = toLambdaRecord(
      localRecord({
        pk: { S: 'WS#acme' },
        sk: { S: 'SURVEYRESP#s1#13#r1' },
        entity: { S: 'SurveyResponse' },
        workspace: { S: 'acme' },
        surveyId: { S: 's1' },
        versionId: { S: 'v1' },
        id: { S: 'r1' },
        status: { S: 'partial' },
        revision: { N: '1' },
        createdAt: { S: '2026-11-29T12:00:00.000Z' },
        answers: {},
        path: { L: [] },
      }),
      ARN,
    );
    expect(responseRecordOf(record)).toMatchObject({
      workspace: 'acme',
      surveyId: 's1',
      responseId: 'r1',
      response: { status: 'partial', answers: {} },
    });
  });
});
