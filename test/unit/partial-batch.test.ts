/** The one partial-batch helper: a reader's failure retries the batch from its record, and no message is dropped. */
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { MessageHandedBack, RetryFrom, readQueue, readTableStream, type StreamReader } from '../../lib/platform/partial-batch.ts';

const record = (n: number, entity: string): DynamoDBRecord => ({
  eventID: `e${n}`,
  eventName: 'INSERT',
  dynamodb: { SequenceNumber: String(100 + n), NewImage: { entity: { S: entity } } },
});
const entityOf = (r: DynamoDBRecord) => r.dynamodb?.NewImage?.entity?.S;

function reader(entity: string, read: (records: DynamoDBRecord[]) => Promise<void>, seen: string[][]): StreamReader {
  return {
    name: entity,
    selects: (r) => entityOf(r) === entity,
    read: async (records) => {
      seen.push(records.map((r) => r.eventID ?? ''));
      await read(records);
    },
  };
}

describe('readTableStream', () => {
  const batch = [record(1, 'A'), record(2, 'B'), record(3, 'A'), record(4, 'B'), record(5, 'A')];

  it('hands each reader the records it selects, in stream order, and reports nothing when all succeed', async () => {
    const seen: string[][] = [];
    const entry = readTableStream([reader('A', async () => undefined, seen), reader('B', async () => undefined, seen)]);
    expect(await entry({ Records: batch })).toEqual({ batchItemFailures: [] });
    expect(seen).toEqual([
      ['e1', 'e3', 'e5'],
      ['e2', 'e4'],
    ]);
  });

  it('retries from the record a reader failed at; the readers after it get only the records before it', async () => {
    const seen: string[][] = [];
    const failAtE3 = async (records: DynamoDBRecord[]) => {
      throw new RetryFrom(records[1] as DynamoDBRecord, new Error('boom'));
    };
    const entry = readTableStream([reader('A', failAtE3, seen), reader('B', async () => undefined, seen)]);
    expect(await entry({ Records: batch })).toEqual({ batchItemFailures: [{ itemIdentifier: '103' }] });
    expect(seen).toEqual([['e1', 'e3', 'e5'], ['e2']]);
  });

  it('retries from a reader’s first record when it throws anything else, and from the lowest of several failures', async () => {
    const seen: string[][] = [];
    const fail = async () => {
      throw new Error('down');
    };
    const entry = readTableStream([reader('B', fail, seen), reader('A', fail, seen)]);
    expect(await entry({ Records: batch })).toEqual({ batchItemFailures: [{ itemIdentifier: '101' }] });
    expect(seen).toEqual([['e2', 'e4'], ['e1']]);
  });
});

describe('readQueue', () => {
  const message = (id: string): SQSRecord => ({ messageId: id, body: id }) as SQSRecord;

  it('reports exactly the messages that threw or were handed back, whether read one after another or at once', async () => {
    for (const concurrent of [false, true]) {
      const entry = readQueue({
        name: 'test',
        concurrent,
        read: async (m) => {
          if (m.body === 'bad') throw new Error('bad');
          if (m.body === 'later') throw new MessageHandedBack();
        },
      });
      const response = await entry({ Records: [message('ok'), message('bad'), message('later'), message('ok2')] });
      expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad' }, { itemIdentifier: 'later' }] });
    }
  });
});
