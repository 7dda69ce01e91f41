/** The one cursor mechanism (lib/platform/pagination.ts): a cursor is bound to its list as the request selects it. */
import { describe, expect, it } from 'vitest';
import type { AuthContext } from '../../lib/platform/auth/context.ts';
import type { ApiError } from '../../lib/platform/errors.ts';
import { type PageStart, pageOfSorted, pageStartOf, paginate } from '../../lib/platform/pagination.ts';
import type { Permission } from '../../lib/platform/permissions.ts';

const authOf = (workspace: string, permissions: Permission[] = ['ideas:read']) =>
  ({ workspace: { slug: workspace }, key: { id: 'k1', name: 'test', permissions } }) as unknown as AuthContext;

const list = { operationId: 'listThings' };
const firstPage = { limit: 2, offset: 0 };

/** A store of ten numbered items, paged by a key `{n}` the way a Query pages by ExclusiveStartKey. */
async function readThings(start: PageStart) {
  const all = Array.from({ length: 10 }, (_, n) => n);
  const from = start.after ? Number(start.after.n) + 1 : start.offset;
  const items = all.slice(from, from + start.limit);
  return {
    items,
    hasMore: from + start.limit < all.length,
    lastKey: items.length ? { n: items.at(-1)! } : undefined,
    returned: items.length,
  };
}

async function nextCursorOf(
  route: typeof list & { cursorBinds?: { permissions: Permission[] } },
  request: Parameters<typeof pageStartOf>[1],
) {
  const page = await paginate(await pageStartOf(route, request), readThings);
  return page.nextCursor!;
}

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return `${(error as ApiError).status} ${(error as ApiError).code}`;
  }
  return 'accepted';
}

describe('pageStartOf and paginate', () => {
  it('starts at the offset without a cursor, and continues where the cursor stopped', async () => {
    const request = { params: {}, query: firstPage, auth: authOf('acme') };
    const first = await paginate(await pageStartOf(list, request), readThings);
    expect(first).toMatchObject({ items: [0, 1], offset: 0, hasMore: true });
    const start = await pageStartOf(list, { ...request, query: { ...firstPage, cursor: first.nextCursor! } });
    expect(start).toMatchObject({ limit: 2, offset: 2, after: { n: 1 } });
    const second = await paginate(start, readThings);
    expect(second).toMatchObject({ items: [2, 3], offset: 2 });
  });

  it('gives no cursor on the last page', async () => {
    const page = await paginate(await pageStartOf(list, { params: {}, query: { limit: 20, offset: 0 }, auth: authOf('acme') }), readThings);
    expect(page.nextCursor).toBeNull();
  });

  it('binds the cursor to the workspace, the operation, the path parameters and every filter', async () => {
    const request = { params: { id: 'a' }, query: { ...firstPage, status: 'open' as string | undefined }, auth: authOf('acme') };
    const cursor = await nextCursorOf(list, request);
    const withCursor =
      (changes: Partial<typeof request>, route: typeof list = list) =>
      () =>
        pageStartOf(route, { ...request, ...changes, query: { ...request.query, ...changes.query, cursor } });
    expect(await refusal(withCursor({}))).toBe('accepted');
    expect(await refusal(withCursor({ auth: authOf('other') }))).toBe('400 invalid_cursor');
    expect(await refusal(withCursor({}, { operationId: 'listOthers' }))).toBe('400 invalid_cursor');
    expect(await refusal(withCursor({ params: { id: 'b' } }))).toBe('400 invalid_cursor');
    expect(await refusal(withCursor({ query: { ...firstPage, status: 'closed' } }))).toBe('400 invalid_cursor');
    expect(await refusal(withCursor({ query: { ...firstPage, status: undefined } }))).toBe('400 invalid_cursor');
    // The page size is no filter: a cursor walks on with another limit.
    expect(await refusal(withCursor({ query: { ...request.query, limit: 5 } }))).toBe('accepted');
  });

  it('binds it to whether the key holds the permissions the route names, not to the key itself', async () => {
    const route = { ...list, cursorBinds: { permissions: ['knowledge-bank:write'] as Permission[] } };
    const writer = authOf('acme', ['knowledge-bank:read', 'knowledge-bank:write']);
    const cursor = await nextCursorOf(route, { params: {}, query: firstPage, auth: writer });
    const as = (auth: AuthContext) => () => pageStartOf(route, { params: {}, query: { ...firstPage, cursor }, auth });
    expect(await refusal(as(authOf('acme', ['knowledge-bank:write', 'knowledge-bank:read'])))).toBe('accepted');
    expect(await refusal(as(authOf('acme', ['knowledge-bank:read'])))).toBe('400 invalid_cursor');
  });

  it('keeps a filter value out of the cursor a client can read', async () => {
    const query = { ...firstPage, respondent: 'jane@example.com' };
    const cursor = await nextCursorOf(list, { params: {}, query, auth: authOf('acme') });
    expect(Buffer.from(cursor.split('.')[0]!, 'base64url').toString()).not.toContain('jane');
  });

  it('refuses a forged, truncated or garbage cursor, and a cursor beside an offset', async () => {
    const request = { params: {}, query: firstPage, auth: authOf('acme') };
    const cursor = await nextCursorOf(list, request);
    const [payload, signature] = cursor.split('.');
    const edited = Buffer.from(Buffer.from(payload!, 'base64url').toString().replace('"o":2', '"o":0')).toString('base64url');
    for (const bad of [`${edited}.${signature}`, payload!, `${cursor}.x`, 'x', 'a.b']) {
      expect(await refusal(() => pageStartOf(list, { ...request, query: { ...firstPage, cursor: bad } }))).toBe('400 invalid_cursor');
    }
    expect(await refusal(() => pageStartOf(list, { ...request, query: { limit: 2, offset: 4, cursor } }))).toBe('400 invalid_query');
  });
});

describe('pageOfSorted', () => {
  const items = ['a', 'c', 'e', 'g', 'i'];
  const byLetter = { keyOf: (item: string) => ({ at: item }), follows: (item: string, place: { at?: unknown }) => item > String(place.at) };
  const start = (offset: number, after?: { at: string }): PageStart => ({ limit: 2, offset, after });

  it('pages by offset, with the total and the key of the last item shown', () => {
    expect(pageOfSorted(items, start(2), byLetter)).toEqual({
      items: ['e', 'g'],
      total: 5,
      hasMore: true,
      lastKey: { at: 'g' },
      returned: 2,
    });
    expect(pageOfSorted(items, start(4), byLetter)).toMatchObject({ items: ['i'], hasMore: false });
    expect(pageOfSorted(items, start(9), byLetter)).toMatchObject({ items: [], lastKey: undefined, returned: 0 });
  });

  it("continues after the cursor's place even when its item is gone", () => {
    expect(pageOfSorted(items, start(0, { at: 'c' }), byLetter).items).toEqual(['e', 'g']);
    expect(pageOfSorted(['a', 'e', 'g', 'i'], start(0, { at: 'c' }), byLetter).items).toEqual(['e', 'g']);
    expect(pageOfSorted(items, start(0, { at: 'z' }), byLetter)).toMatchObject({ items: [], hasMore: false });
  });
});
