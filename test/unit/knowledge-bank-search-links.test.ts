import { describe, expect, it } from 'vitest';
import { PER_HOST_CONCURRENCY, probeAll } from '../../lib/knowledge-bank/link-check/probe.ts';
import { externalLinks, type LinkItem, resultOf, urlsToCheck } from '../../lib/knowledge-bank/link-check/results.ts';

const item = (articleId: string, view: 'DRAFT' | 'LIVE', links: LinkItem['links']): LinkItem => ({
  pk: 'WS#acme',
  sk: `KBLINKS#${articleId}#${view}`,
  articleId,
  links,
});
const external = (target: string, extra: Partial<LinkItem['links'][number]> = {}) => ({
  id: target,
  blockId: 'b',
  kind: 'external' as const,
  target,
  ...extra,
});

describe('knowledge-bank link checks: what a result means', () => {
  const at = '2026-11-22T00:00:00.000Z';
  it('2xx is ok, 3xx redirected to its Location, 4xx/5xx and no answer broken', () => {
    expect(resultOf({ status: 204, location: null, error: null }, at)).toEqual({
      status: 'ok',
      httpStatus: 204,
      redirectTo: null,
      detail: null,
      checkedAt: at,
    });
    expect(resultOf({ status: 308, location: 'https://example.com/new', error: null }, at)).toMatchObject({
      status: 'redirected',
      redirectTo: 'https://example.com/new',
    });
    expect(resultOf({ status: 410, location: null, error: null }, at)).toMatchObject({ status: 'broken', httpStatus: 410 });
    expect(resultOf({ status: null, location: null, error: 'timed out after 10 s' }, at)).toMatchObject({
      status: 'broken',
      httpStatus: null,
      detail: 'timed out after 10 s',
    });
  });
});

describe('knowledge-bank link checks: what to check', () => {
  it('checks each http(s) URL once, never-checked first, then the longest unchecked; never mailto or internal links', () => {
    const items = [
      item('a1', 'LIVE', [
        external('https://b.example/'),
        external('https://a.example/', { checkedAt: '2026-11-20T00:00:00.000Z' }),
        external('mailto:x@example.com'),
      ]),
      item('a1', 'DRAFT', [
        external('https://a.example/', { checkedAt: '2026-11-21T00:00:00.000Z' }),
        { id: 'i', blockId: 'b', kind: 'article', target: 'a2' },
      ]),
      item('a2', 'LIVE', [external('https://c.example/', { checkedAt: '2026-11-19T00:00:00.000Z' })]),
    ];
    expect(urlsToCheck(items)).toEqual(['https://b.example/', 'https://c.example/', 'https://a.example/']);
  });

  it('lists each URL once, sorted, with every article linking to it and its latest result', () => {
    const items = [
      item('a2', 'LIVE', [external('https://a.example/', { status: 'broken', httpStatus: 404, checkedAt: '2026-11-20T00:00:00.000Z' })]),
      item('a1', 'DRAFT', [external('https://a.example/', { status: 'ok', httpStatus: 200, checkedAt: '2026-11-21T00:00:00.000Z' })]),
      item('a1', 'LIVE', [external('mailto:x@example.com')]),
    ];
    expect(externalLinks(items)).toEqual([
      {
        url: 'https://a.example/',
        status: 'ok',
        httpStatus: 200,
        redirectTo: null,
        checkedAt: '2026-11-21T00:00:00.000Z',
        detail: null,
        articles: ['a1', 'a2'],
      },
      {
        url: 'mailto:x@example.com',
        status: 'unchecked',
        httpStatus: null,
        redirectTo: null,
        checkedAt: null,
        detail: null,
        articles: ['a1'],
      },
    ]);
  });
});

describe('knowledge-bank link checks: politeness', () => {
  it(`never has more than ${PER_HOST_CONCURRENCY} requests in flight to one host`, async () => {
    const inFlight = new Map<string, number>();
    let most = 0;
    const urls = [
      ...Array.from({ length: 12 }, (_, i) => `https://one.example/${i}`),
      ...Array.from({ length: 4 }, (_, i) => `https://two.example/${i}`),
    ];
    const seen: string[] = [];
    const { checked, remaining } = await probeAll(urls, (url) => void seen.push(url), {
      check: async (url) => {
        const host = new URL(url).host;
        inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
        most = Math.max(most, inFlight.get(host)!);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight.set(host, inFlight.get(host)! - 1);
        return { status: 200, location: null, error: null };
      },
    });
    expect(most).toBe(PER_HOST_CONCURRENCY);
    expect({ checked, remaining }).toEqual({ checked: 16, remaining: 0 });
    expect(seen.sort()).toEqual([...urls].sort());
  });

  it('stops taking new URLs when told to, reporting what remains', async () => {
    let calls = 0;
    const urls = Array.from({ length: 10 }, (_, i) => `https://one.example/${i}`);
    const result = await probeAll(urls, () => undefined, {
      shouldStop: () => calls >= 2,
      check: async () => {
        calls++;
        return { status: 200, location: null, error: null };
      },
    });
    expect(result.checked).toBeLessThan(10);
    expect(result.checked + result.remaining).toBe(10);
  });
});
