/**
 * The write gate (lib/platform/write-gate.ts): inside an API request, reads go out at once and
 * everything else waits for the rate limit's verdict, failing with its answer when the request is
 * over its limit; outside a request nothing waits. Every SDK client that can write from a request
 * is gated, and so is the outbound POST.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../lib/platform/errors.ts';
import { postJson } from '../../lib/platform/outbound/http-post.ts';
import { gateWrites, isReadCommand, runBehindVerdict } from '../../lib/platform/write-gate.ts';

/** A verdict the test decides. */
function pendingVerdict() {
  let allow!: () => void;
  let refuse!: (error: Error) => void;
  const verdict = new Promise<void>((resolve, reject) => {
    allow = resolve;
    refuse = reject;
  });
  return { verdict, allow, refuse };
}

/**
 * A gated document client whose calls go through the SDK's whole middleware stack but stop before
 * the network: `sent` lists, in order, the commands that got past the gate.
 */
function gatedClient() {
  const sent: string[] = [];
  const client = gateWrites(
    DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } })),
  );
  const network = (_next: unknown, context: { commandName?: string }) => async () => {
    sent.push(context.commandName ?? '?');
    return { output: {}, response: {} };
  };
  client.middlewareStack.add(network as never, { step: 'build', name: 'testNetwork' });
  return { client, sent };
}

const Key = { pk: 'a', sk: 'b' };

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the write gate', () => {
  it('sends reads at once and holds a write until the verdict allows it', async () => {
    const { client, sent } = gatedClient();
    const { verdict, allow } = pendingVerdict();
    const work = runBehindVerdict(verdict, async () => {
      const write = client.send(new PutCommand({ TableName: 't', Item: Key }));
      await Promise.all([client.send(new GetCommand({ TableName: 't', Key })), client.send(new QueryCommand({ TableName: 't' }))]);
      return write;
    });
    await settle();
    expect(sent).toEqual(['GetItemCommand', 'QueryCommand']);
    allow();
    await work;
    expect(sent).toEqual(['GetItemCommand', 'QueryCommand', 'PutItemCommand']);
  });

  it('fails a write with the refusal when the request is over its limit, and never sends it', async () => {
    const { client, sent } = gatedClient();
    const { verdict, refuse } = pendingVerdict();
    const work = runBehindVerdict(verdict, () => client.send(new PutCommand({ TableName: 't', Item: Key })));
    refuse(new RateLimitedError(30));
    await expect(work).rejects.toBeInstanceOf(RateLimitedError);
    await settle();
    expect(sent).toEqual([]);
  });

  it('leaves a refusal nobody waited for unreported (an operation that only read)', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const { client } = gatedClient();
      const { verdict, refuse } = pendingVerdict();
      const read = runBehindVerdict(verdict, () => client.send(new GetCommand({ TableName: 't', Key })));
      refuse(new RateLimitedError(30));
      await read;
      await settle();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  it('holds nothing outside an API request (stream and queue consumers, operator tools)', async () => {
    const { client, sent } = gatedClient();
    await client.send(new PutCommand({ TableName: 't', Item: Key }));
    expect(sent).toEqual(['PutItemCommand']);
  });

  it('holds an outbound POST too: over the limit, nothing is sent to the receiver', async () => {
    const { verdict, refuse } = pendingVerdict();
    const post = runBehindVerdict(verdict, () => postJson('https://hooks.example.com/x', '{}', {}));
    refuse(new RateLimitedError(30));
    await expect(post).rejects.toBeInstanceOf(RateLimitedError);
  });

  it.each([
    ['GetItemCommand', true],
    ['BatchGetCommand', true],
    ['TransactGetItemsCommand', true],
    ['QueryCommand', true],
    ['GetObjectCommand', true],
    ['ListObjectsV2Command', true],
    ['PutCommand', false],
    ['UpdateItemCommand', false],
    ['TransactWriteCommand', false],
    ['BatchWriteItemCommand', false],
    ['DeleteCommand', false],
    ['SendMessageCommand', false],
    ['ExecuteStatementCommand', false],
  ])('treats %s as a read: %s', (command, read) => {
    expect(isReadCommand(command)).toBe(read);
  });
});

describe('every client a request can write through', () => {
  const ROOT = resolve(import.meta.dirname, '../..');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );

  /**
   * The one client made ungated on purpose: usage writes carry earlier requests' counters, not this
   * request's work, so they must not wait for (or be refused by) this request's rate-limit verdict.
   */
  const UNGATED_BY_DESIGN = 'lib/platform/data/usage-writes.ts';

  it('leaves the usage writes ungated: they are not the operation’s writes', () => {
    const source = readFileSync(join(ROOT, UNGATED_BY_DESIGN), 'utf8');
    expect(source).toMatch(/new DynamoDBClient\(/);
    expect(source).not.toMatch(/gateWrites\(/);
  });

  it('is gated: each DynamoDB and SQS client of lib/ (cxctl aside) is made through gateWrites', () => {
    const ungated = files(join(ROOT, 'lib'))
      .filter((file) => !relative(ROOT, file).startsWith('lib/admin/') && relative(ROOT, file) !== UNGATED_BY_DESIGN)
      .filter((file) => {
        const source = readFileSync(file, 'utf8');
        const made = source.match(/new (DynamoDB|SQS)Client\(/g)?.length ?? 0;
        const gated = source.match(/gateWrites\(/g)?.length ?? 0;
        return made > gated;
      })
      .map((file) => relative(ROOT, file));
    expect(ungated).toEqual([]);
  });
});
