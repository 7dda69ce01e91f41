/**
 * A journey version is one DynamoDB item: content that fits 1 MB of JSON can still make an item past
 * DynamoDB's 400 KB limit (the compressed content plus the pairs kept beside it), which DynamoDB
 * refuses with a ValidationException (a 502 before issue 27). These run against DynamoDB Local, which
 * enforces the limit as DynamoDB does: the size rules themselves, then the boundary over HTTP.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeContent } from '../../lib/journeys/codec.ts';
import { pairTargetsOf } from '../../lib/journeys/diagnostics.ts';
import { journeyVersionEntity } from '../../lib/journeys/entities.ts';
import { largestBindingsAttribute } from '../../lib/journeys/metric-bindings.ts';
import { largestVersionItemBytes } from '../../lib/journeys/store/versions.ts';
import { itemBytes, MAX_ITEM_BYTES } from '../../lib/platform/data/item-size.ts';
import { workspacePk } from '../../lib/platform/data/keys.ts';
import { adminStore, clientFor, expectErrorEnvelope, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { type Api, type MadeJourney, makeJourney } from '../support/journeys.ts';

let ws: TestWorkspace;
let api: Api;

beforeAll(async () => {
  ws = await newWorkspace('journeys-size');
  api = clientFor(ws);
});

const versionPath = (made: MadeJourney) => `/journeys/${made.journeyId}/versions/${made.versionId}`;

/** `stages` stages of `perStage` pairs each, naming journeys from `journeyIds` in turn. */
function pairedContent(stages: number, perStage: number, journeyIds: () => string) {
  return {
    schema: 1,
    stages: Array.from({ length: stages }, (_, i) => ({
      id: `s${i}`,
      microJourneyPairs: Array.from({ length: perStage }, () => ({ journeyId: journeyIds() })),
    })),
    rows: [],
    cells: {},
  };
}

const distinctJourneys = () => randomUUID();

function fromPool(size: number) {
  const pool = Array.from({ length: size }, () => randomUUID());
  let next = 0;
  return () => pool[next++ % size]!;
}

/** What the API's check computes for `content` (the same pure functions, no I/O). */
function largestItemOf(content: object): number {
  const encoded = encodeContent(content);
  if (!encoded.ok) return Number.POSITIVE_INFINITY;
  return largestVersionItemBytes({
    content: encoded.compressed,
    contentBytes: encoded.rawBytes,
    pairs: pairTargetsOf(content as never),
    bindings: largestBindingsAttribute(content as never),
  });
}

const save = (made: MadeJourney, content: unknown, revision = 1) =>
  api.put(`${versionPath(made)}/content`, { body: { content }, headers: { 'If-Match': `"${revision}"` } });

describe('DynamoDB item size (lib/platform/data/item-size.ts)', () => {
  it('counts an item exactly as DynamoDB does at its 400 KB limit: 409,600 bytes are stored, one more is refused', async () => {
    const key = { pk: workspacePk(ws.slug), sk: `SIZEPROBE#${randomUUID()}` };
    const base = { ...key, label: 'سعة', n: 12345, flags: [true, null, 'x'], nested: { a: 1, b: 'bc' }, tags: new Set(['p', 'q']) };
    const padding = MAX_ITEM_BYTES - itemBytes({ ...base, pad: new Uint8Array(0) });
    const atLimit = { ...base, pad: new Uint8Array(padding) };
    expect(itemBytes(atLimit)).toBe(MAX_ITEM_BYTES);
    await adminStore().db.send(new PutCommand({ TableName: adminStore().table, Item: atLimit }));
    const overLimit = { ...base, pad: new Uint8Array(padding + 1) };
    await expect(adminStore().db.send(new PutCommand({ TableName: adminStore().table, Item: overLimit }))).rejects.toThrow(/size/i);
  });
});

describe('PUT …/content at the item limit', () => {
  it('answers 413 content_too_large, never 502, for 300 stages × 20 pairs of distinct journeys, and writes nothing', async () => {
    const made = await makeJourney(api);
    const content = pairedContent(300, 20, distinctJourneys);
    const res = await save(made, content);
    expectErrorEnvelope(res, 413, 'content_too_large');
    expect(res.body.message).toMatch(/6000 distinct micro-journey pairs.*409600/);
    expect((await api.get(versionPath(made))).body.version.revision).toBe(1);
  });

  it('saves 300 stages × 20 pairs when they name 40 journeys: each pair target is kept once', async () => {
    const made = await makeJourney(api);
    const content = pairedContent(300, 20, fromPool(40));
    const res = await save(made, content);
    expect(res.status, res.text).toBe(200);
    expect((await api.get(versionPath(made))).body.version.content).toEqual(content);
  });

  it('saves the largest map that fits, refuses the next with 413, and a branch of the largest is stored too', async () => {
    // 300 stages × 20 pairs of 40 journeys, and notes that hardly compress (random text), one more at a
    // time: the last count whose version fits, by the API's own rule (a binary search).
    const pairs = pairedContent(300, 20, fromPool(40));
    const notes = Array.from({ length: 200 }, (_, i) => [`notes:s${i}`, { textEn: randomBytes(2400).toString('base64') }] as const);
    const upTo = (count: number) => ({
      ...pairs,
      rows: [{ id: 'notes', type: 'text' }],
      cells: Object.fromEntries(notes.slice(0, count)),
    });
    let fitting = 0;
    let failing = notes.length;
    expect(largestItemOf(upTo(failing))).toBeGreaterThan(MAX_ITEM_BYTES);
    while (failing - fitting > 1) {
      const middle = Math.floor((fitting + failing) / 2);
      if (largestItemOf(upTo(middle)) > MAX_ITEM_BYTES) failing = middle;
      else fitting = middle;
    }
    const content = upTo(fitting);
    const tooLarge = upTo(fitting + 1);

    const made = await makeJourney(api);
    expectErrorEnvelope(await save(made, tooLarge), 413, 'content_too_large');
    const fits = await save(made, content);
    expect(fits.status, fits.text).toBe(200);
    expect((await api.get(versionPath(made))).body.version.content).toEqual(content);

    // The stored item is within the limit, and within what the check allowed for it.
    const { Item } = await adminStore().db.send(
      new GetCommand({
        TableName: adminStore().table,
        Key: journeyVersionEntity.keys.version(ws.slug, made.journeyId, made.versionId),
        ConsistentRead: true,
      }),
    );
    expect(itemBytes(Item!)).toBeLessThanOrEqual(largestItemOf(content));
    // One more note (about 3.3 KB stored) would not fit: the check allows what DynamoDB holds, not a cautious fraction of it.
    expect(largestItemOf(content)).toBeGreaterThan(MAX_ITEM_BYTES - 4 * 1024);

    const branch = await api.post(`/journeys/${made.journeyId}/versions`, {
      body: { fromVersionId: made.versionId, label: '𝌆'.repeat(100) },
    });
    expect(branch.status, branch.text).toBe(200);
  });
});
