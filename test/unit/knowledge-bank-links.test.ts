/** Link extraction from structured span links, and the backlink changes a save implies. */
import { describe, expect, it } from 'vitest';
import type { Block } from '../../lib/knowledge-bank/blocks.ts';
import { extractLinks, internalTargets, linkId, linkLimitProblem, MAX_LINKS, targetChanges } from '../../lib/knowledge-bank/links.ts';
import { checkPublishable, type LinkTargetState } from '../../lib/knowledge-bank/publish.ts';
import { content, linkingParagraph, paragraph } from '../support/knowledge-bank-builders.ts';

const articleA = '11111111-1111-4111-8111-111111111111';
const articleB = '22222222-2222-4222-8222-222222222222';
const category = '33333333-3333-4333-8333-333333333333';
const self = '44444444-4444-4444-8444-444444444444';

describe('knowledge-bank link extraction', () => {
  it('finds every kind of link, in block order, with a stable id per block and target', () => {
    const blocks: Block[] = [
      linkingParagraph('p1', [{ href: 'https://example.com/help' }, { articleId: articleA, anchor: 'step-2' }]),
      {
        id: 'f1',
        type: 'faq',
        question: { ar: [{ text: 'أين الفواتير؟', link: { categoryId: category } }] },
        answer: { en: [{ text: 'See idea', link: { record: { kind: 'idea', id: 'IDEA-7' } } }] },
      },
    ];
    expect(extractLinks(blocks)).toEqual([
      { id: linkId('p1', 'external', 'https://example.com/help'), blockId: 'p1', kind: 'external', target: 'https://example.com/help' },
      { id: linkId('p1', 'article', articleA, 'step-2'), blockId: 'p1', kind: 'article', target: articleA, anchor: 'step-2' },
      { id: linkId('f1', 'category', category), blockId: 'f1', kind: 'category', target: category },
      { id: linkId('f1', 'record', 'idea:IDEA-7'), blockId: 'f1', kind: 'record', target: 'idea:IDEA-7' },
    ]);
  });

  it('counts the same target twice in one block once, and in the English and Arabic text once', () => {
    const block: Block = {
      id: 'p',
      type: 'paragraph',
      text: {
        en: [
          { text: 'a', link: { articleId: articleA } },
          { text: 'b', link: { articleId: articleA } },
        ],
        ar: [{ text: 'ا', link: { articleId: articleA } }],
      },
    };
    expect(extractLinks([block])).toHaveLength(1);
  });

  it('finds links in lists, tables and image captions', () => {
    const blocks: Block[] = [
      { id: 'l', type: 'list', ordered: false, items: [{ en: [{ text: 'x', link: { articleId: articleA } }] }] },
      { id: 't', type: 'table', rows: [[{}, { ar: [{ text: 'ب', link: { articleId: articleB } }] }]] },
      { id: 'i', type: 'image', url: 'https://a.example/i.png', caption: { en: [{ text: 'c', link: { href: 'mailto:a@b.example' } }] } },
    ];
    expect(extractLinks(blocks).map((link) => [link.blockId, link.target])).toEqual([
      ['l', articleA],
      ['t', articleB],
      ['i', 'mailto:a@b.example'],
    ]);
  });

  it('reduces links to distinct internal targets and diffs them', () => {
    const links = extractLinks([
      linkingParagraph('p1', [{ articleId: articleA }, { href: 'https://x.example' }]),
      linkingParagraph('p2', [{ articleId: articleA }, { categoryId: category }]),
    ]);
    const targets = internalTargets(links);
    expect(targets).toEqual([
      { kind: 'article', id: articleA },
      { kind: 'category', id: category },
    ]);
    expect(
      targetChanges(targets, [
        { kind: 'article', id: articleB },
        { kind: 'category', id: category },
      ]),
    ).toEqual({
      added: [{ kind: 'article', id: articleB }],
      removed: [{ kind: 'article', id: articleA }],
    });
  });
});

describe('knowledge-bank link limits', () => {
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

  it('allows 40 distinct internal targets and refuses 41, however often each is linked', () => {
    const blocks = (n: number) => [
      linkingParagraph(
        'p',
        Array.from({ length: n }, (_, i) => ({ articleId: uuid(i) })),
      ),
    ];
    expect(linkLimitProblem(extractLinks(blocks(40)))).toBeNull();
    expect(linkLimitProblem(extractLinks(blocks(41)))).toMatch(/at most 40 distinct/);
    const repeated = Array.from({ length: 100 }, (_, i) => linkingParagraph(`p${i}`, [{ articleId: uuid(i % 40) }]));
    expect(linkLimitProblem(extractLinks(repeated))).toBeNull();
  });

  it('caps the number of links and their stored size, so the links item fits in DynamoDB', () => {
    const external = (n: number, length = 20) =>
      Array.from({ length: n }, (_, i) => linkingParagraph(`p${i}`, [{ href: `https://example.com/${String(i).padEnd(length, 'x')}` }]));
    expect(linkLimitProblem(extractLinks(external(MAX_LINKS)))).toBeNull();
    expect(linkLimitProblem(extractLinks(external(MAX_LINKS + 1)))).toMatch(/at most 1000 links/);
    expect(linkLimitProblem(extractLinks(external(200, 2000)))).toMatch(/too long/);
  });
});

describe('knowledge-bank publish rules', () => {
  const article = { id: self, sourceLanguage: 'en' as const, visibility: 'public' as const };
  const published: LinkTargetState = { kind: 'article', visibility: 'public', published: true };

  it('needs a title and a block with words in the source language', () => {
    expect(checkPublishable(article, content([paragraph('b', undefined, 'نص')], { titleAr: 'عنوان' }), [], new Map())).toEqual({
      ok: false,
      error: 'not_publishable',
      issues: [
        { path: 'draft.titleEn', message: 'a title in the source language (en) is required' },
        { path: 'draft.blocks', message: 'at least one block with en text is required' },
      ],
    });
    const arabic = { ...article, sourceLanguage: 'ar' as const };
    expect(checkPublishable(arabic, content([paragraph('b', undefined, 'نص')], { titleAr: 'عنوان' }), [], new Map())).toEqual({ ok: true });
  });

  it('refuses links from a public article to internal, unpublished or missing targets, listing each', () => {
    const blocks = [
      linkingParagraph('p1', [{ articleId: articleA }, { articleId: articleB }]),
      linkingParagraph('p2', [{ categoryId: category }, { articleId: self }, { href: 'https://ok.example' }]),
    ];
    const targets = new Map<string, LinkTargetState>([
      [articleA, { kind: 'article', visibility: 'internal', published: true }],
      [articleB, { kind: 'article', visibility: 'public', published: false }],
    ]);
    const result = checkPublishable(article, content(blocks, { titleEn: 'T' }), extractLinks(blocks), targets);
    expect(result).toEqual({
      ok: false,
      error: 'invalid_links',
      issues: [
        { path: 'draft.blocks.p1', message: `a public article may not link to internal article ${articleA}` },
        { path: 'draft.blocks.p1', message: `a public article may not link to unpublished article ${articleB}` },
        { path: 'draft.blocks.p2', message: `links to category ${category}, which does not exist` },
      ],
    });
  });

  it('lets an internal article link to internal and unpublished articles, but not to missing ones', () => {
    const blocks = [linkingParagraph('p1', [{ articleId: articleA }, { articleId: articleB }])];
    const internal = { ...article, visibility: 'internal' as const };
    const targets = new Map<string, LinkTargetState>([[articleA, { kind: 'article', visibility: 'internal', published: false }]]);
    const result = checkPublishable(internal, content(blocks, { titleEn: 'T' }), extractLinks(blocks), targets);
    expect(result).toEqual({
      ok: false,
      error: 'invalid_links',
      issues: [{ path: 'draft.blocks.p1', message: `links to article ${articleB}, which does not exist` }],
    });
    targets.set(articleB, published);
    expect(checkPublishable(internal, content(blocks, { titleEn: 'T' }), extractLinks(blocks), targets)).toEqual({ ok: true });
  });

  it('refuses an article id given as a category link', () => {
    const blocks = [linkingParagraph('p1', [{ categoryId: articleA }])];
    const targets = new Map<string, LinkTargetState>([[articleA, published]]);
    const result = checkPublishable(article, content(blocks, { titleEn: 'T' }), extractLinks(blocks), targets);
    expect(result.ok).toBe(false);
  });
});
