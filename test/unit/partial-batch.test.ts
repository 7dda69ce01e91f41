/** The one partial-batch helper: a reader's failure retries the batch from its record, and no message is dropped. */
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
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
    entities: [{ name: entity }],
    selects: (r) => entityOf(r) === entity,
    read: async (records) => {
      seen.push(records.map((r) => r.eventID ?? ''));
      await read(records);
    },
  };
}

/** The entry of a mapping that declares exactly these readers. */
const entryOf = (...readers: StreamReader[]) => readTableStream({ readers }, readers);

describe('readTableStream', () => {
  const batch = [record(1, 'A'), record(2, 'B'), record(3, 'A'), record(4, 'B'), record(5, 'A')];

  it('hands each reader the records it selects, in stream order, and reports nothing when all succeed', async () => {
    const seen: string[][] = [];
    const entry = entryOf(
      reader('A', async () => undefined, seen),
      reader('B', async () => undefined, seen),
    );
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
    const entry = entryOf(
      reader('A', failAtE3, seen),
      reader('B', async () => undefined, seen),
    );
    expect(await entry({ Records: batch })).toEqual({ batchItemFailures: [{ itemIdentifier: '103' }] });
    expect(seen).toEqual([['e1', 'e3', 'e5'], ['e2']]);
  });

  it('retries from a reader’s first record when it throws anything else, and from the lowest of several failures', async () => {
    const seen: string[][] = [];
    const fail = async () => {
      throw new Error('down');
    };
    const entry = entryOf(reader('B', fail, seen), reader('A', fail, seen));
    expect(await entry({ Records: batch })).toEqual({ batchItemFailures: [{ itemIdentifier: '101' }] });
    expect(seen).toEqual([['e2', 'e4'], ['e1']]);
  });

  it('refuses, at cold start, readers other than the ones its mapping declares', () => {
    const a = reader('A', async () => undefined, []);
    const b = reader('B', async () => undefined, []);
    expect(() => readTableStream({ readers: [a, b] }, [a])).toThrow(/reads \[A\] but its mapping declares \[A, B\]/);
    expect(() => readTableStream({ readers: [a] }, [{ ...a, entities: [{ name: 'B' }] }])).toThrow(/mapping declares/);
  });
});

describe('readQueue', () => {
  // Each message's body is its id as JSON, which the reader's schema parses.
  const message = (id: string): SQSRecord => ({ messageId: id, body: JSON.stringify(id) }) as SQSRecord;

  it('reports exactly the messages that threw or were handed back, whether read one after another or at once', async () => {
    for (const concurrent of [false, true]) {
      const entry = readQueue({
        name: 'test',
        message: z.string(),
        concurrent,
        read: async (m) => {
          if (m === 'bad') throw new Error('bad');
          if (m === 'later') throw new MessageHandedBack();
        },
      });
      const response = await entry({ Records: [message('ok'), message('bad'), message('later'), message('ok2')] });
      expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad' }, { itemIdentifier: 'later' }] });
    }
  });

  it('reports a message its schema does not parse, and hands the reader only parsed ones', async () => {
    const read: unknown[] = [];
    const entry = readQueue({
      name: 'test',
      message: z.object({ n: z.number() }),
      concurrent: false,
      read: async (m) => void read.push(m),
    });
    const records = [
      { messageId: 'good', body: '{"n":1}' },
      { messageId: 'not-json', body: 'n=1' },
      { messageId: 'wrong-shape', body: '{"n":"1"}' },
    ] as SQSRecord[];
    expect(await entry({ Records: records })).toEqual({
      batchItemFailures: [{ itemIdentifier: 'not-json' }, { itemIdentifier: 'wrong-shape' }],
    });
    expect(read).toEqual([{ n: 1 }]);
  });
});
