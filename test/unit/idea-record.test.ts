/** The idea item: time-ordered ids, the public view of an item, the submitter hash, character counting. */
import { describe, expect, it } from 'vitest';
import { newIdeaId, submitterHashOf, toIdea } from '../../lib/ideas/record.ts';
import { ideaPatch, ideaWrite } from '../../lib/ideas/schemas.ts';
import { characterCount } from '../../lib/platform/schemas.ts';

describe('newIdeaId', () => {
  it('is a version 7 UUID', () => {
    expect(newIdeaId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('sorts as text in creation order, one millisecond apart or more', () => {
    const start = Date.UTC(2025, 0, 1);
    const ids = [0, 1, 2, 1000, 86_400_000, 31_536_000_000].map((offset) => newIdeaId(start + offset));
    expect([...ids].sort()).toEqual(ids);
  });

  it('never repeats', () => {
    const ids = Array.from({ length: 10_000 }, () => newIdeaId(0));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('toIdea', () => {
  it('shows only the public fields, with null for absent ones', () => {
    const item = {
      pk: 'WS#acme',
      sk: 'IDEA#1',
      entity: 'Idea',
      workspace: 'acme',
      id: '1',
      title: 'T',
      moderationStatus: 'pending',
      visibility: 'private',
      version: 4,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-02T00:00:00.000Z',
      submitter: { email: 'ann@example.com' },
      submitterHash: 'abc',
      customerContext: '{"plan":"pro"}',
      createdByKeyId: 'KEY1',
    };
    expect(toIdea(item)).toEqual({
      id: '1',
      title: 'T',
      titleAr: null,
      description: null,
      status: null,
      module: null,
      moderationStatus: 'pending',
      visibility: 'private',
      priority: null,
      statusMessage: null,
      statusMessageAr: null,
      // Issue 39: no votes and no merge yet (the counts are summed from the shards where an idea is answered).
      voteCount: 0,
      importance: { nice: 0, important: 0, critical: 0 },
      mergedInto: null,
      mergedFrom: [],
      version: 4,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-02T00:00:00.000Z',
    });
  });
});

describe('submitterHashOf', () => {
  it('prefers the external id, falls back to the case-insensitive e-mail, and is absent with neither', () => {
    expect(submitterHashOf('acme', { externalId: 'crm-1', email: 'a@b.co' })).toBe(submitterHashOf('acme', { externalId: 'crm-1' }));
    expect(submitterHashOf('acme', { email: 'Ann@Example.com' })).toBe(submitterHashOf('acme', { email: 'ann@example.com' }));
    expect(submitterHashOf('acme', { name: 'Ann' })).toBeUndefined();
    expect(submitterHashOf('acme', undefined)).toBeUndefined();
  });

  it('differs between workspaces for the same person', () => {
    expect(submitterHashOf('acme', { email: 'ann@example.com' })).not.toBe(submitterHashOf('globex', { email: 'ann@example.com' }));
  });
});

describe('idea text limits', () => {
  it('count code points, as JSON Schema maxLength does', () => {
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('💡💡')).toBe(2);
    expect(characterCount('الوضع')).toBe(5);
  });

  it('IdeaWrite takes 160 emoji as a title, not 161; IdeaPatch takes an empty object', () => {
    expect(ideaWrite.safeParse({ title: '💡'.repeat(160) }).success).toBe(true);
    expect(ideaWrite.safeParse({ title: '💡'.repeat(161) }).success).toBe(false);
    expect(ideaPatch.safeParse({}).success).toBe(true);
  });
});
