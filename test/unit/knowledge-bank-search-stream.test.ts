import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { coalesce, searchChangeOf } from '../../lib/knowledge-bank/search/stream.ts';

type Image = Record<string, AttributeValue>;

const article = (workspace: string, id: string, fields: Record<string, AttributeValue> = {}): Image => ({
  pk: { S: `WS#${workspace}` },
  sk: { S: `KBART#${id}` },
  entity: { S: 'KbArticle' },
  id: { S: id },
  status: { S: 'published' },
  liveRevision: { N: '1' },
  publishedAt: { S: '2026-01-01T00:00:00.000Z' },
  live: { M: { titleEn: { S: 'Reset your password' }, titleAr: { NULL: true } } },
  hasUnpublishedChanges: { BOOL: false },
  version: { N: '3' },
  ...fields,
});

let sequence = 100;
const record = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', oldImage?: Image, newImage?: Image): DynamoDBRecord => ({
  eventName,
  dynamodb: {
    SequenceNumber: String(sequence++),
    ...(oldImage ? { OldImage: oldImage } : {}),
    ...(newImage ? { NewImage: newImage } : {}),
  },
});

describe('knowledge-bank search: which stream records change search', () => {
  it('counts a publish, an unpublish, a delete and a metadata change of a live article', () => {
    const draft = article('acme', 'a1', { status: { S: 'draft' }, liveRevision: { NULL: true } });
    const live = article('acme', 'a1');
    expect(searchChangeOf(record('MODIFY', draft, live))).toEqual({ workspace: 'acme', articleId: 'a1' });
    expect(searchChangeOf(record('MODIFY', live, article('acme', 'a1', { status: { S: 'unpublished' } })))).not.toBeNull();
    expect(searchChangeOf(record('REMOVE', live, undefined))).toEqual({ workspace: 'acme', articleId: 'a1' });
    expect(searchChangeOf(record('MODIFY', live, article('acme', 'a1', { tags: { L: [{ S: 'billing' }] } })))).not.toBeNull();
  });

  it('ignores draft saves, drafts never published and other items', () => {
    const live = article('acme', 'a1');
    // A draft save rewrites the item (version, hasUnpublishedChanges) but not what is live.
    expect(
      searchChangeOf(record('MODIFY', live, article('acme', 'a1', { version: { N: '4' }, hasUnpublishedChanges: { BOOL: true } }))),
    ).toBeNull();
    const draft = article('acme', 'a2', { status: { S: 'draft' } });
    expect(searchChangeOf(record('INSERT', undefined, draft))).toBeNull();
    expect(searchChangeOf(record('REMOVE', draft, undefined))).toBeNull();
    expect(searchChangeOf(record('INSERT', undefined, { pk: { S: 'WS#acme' }, sk: { S: 'IDEA#1' }, entity: { S: 'Idea' } }))).toBeNull();
  });

  it('does not mistake a reordered map for a change', () => {
    const before = article('acme', 'a1', { live: { M: { titleEn: { S: 'A' }, summaryEn: { S: 'B' } } } });
    const after = article('acme', 'a1', { live: { M: { summaryEn: { S: 'B' }, titleEn: { S: 'A' } } }, version: { N: '9' } });
    expect(searchChangeOf(record('MODIFY', before, after))).toBeNull();
  });

  it('coalesces a burst of 100 publishes in a workspace into one update, remembering where it starts', () => {
    const records = Array.from({ length: 100 }, (_, i) =>
      record('MODIFY', article('acme', `a${i}`, { status: { S: 'draft' } }), article('acme', `a${i}`)),
    );
    records.splice(50, 0, record('MODIFY', article('globex', 'g1', { status: { S: 'draft' } }), article('globex', 'g1')));
    const updates = coalesce(records);
    expect(updates.map((u) => [u.workspace, u.articleIds.size])).toEqual([
      ['acme', 100],
      ['globex', 1],
    ]);
    expect(updates[0]!.firstSequenceNumber).toBe(records[0]!.dynamodb!.SequenceNumber);
    expect(updates[1]!.firstSequenceNumber).toBe(records[50]!.dynamodb!.SequenceNumber);
  });
});
