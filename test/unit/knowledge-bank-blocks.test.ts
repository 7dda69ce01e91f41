/** The block schema and block ids: every block type, span links, limits and id assignment. */
import { describe, expect, it } from 'vitest';
import { assignBlockIds } from '../../lib/knowledge-bank/block-ids.ts';
import { blockInput, blocksInput, languageTextOf } from '../../lib/knowledge-bank/blocks.ts';

const t = { en: [{ text: 'Reset your password' }], ar: [{ text: 'أعد تعيين كلمة المرور' }] };
const uuid = '0b7e6b3e-9a43-4c5e-8f6f-1f2a3b4c5d6e';

describe('knowledge-bank block schema', () => {
  it.each([
    { type: 'paragraph', text: t },
    { type: 'heading', level: 2, text: t },
    { type: 'callout', tone: 'warning', text: t },
    { type: 'quote', text: { ar: [{ text: 'اقتباس', marks: ['italic'] }] } },
    { type: 'list', ordered: true, items: [t, { en: [{ text: 'Two' }] }] },
    {
      type: 'table',
      rows: [
        [t, t],
        [{}, t],
      ],
    },
    { type: 'faq', question: t, answer: { en: [{ text: 'Yes', marks: ['bold', 'code'] }] } },
    { type: 'image', url: 'https://cdn.example.com/a.png', alt: { en: 'A', ar: 'صورة' }, caption: t },
    { type: 'code', language: 'bash', code: 'curl -s https://example.com' },
    { type: 'embed', url: 'https://www.youtube.com/embed/x' },
    { type: 'divider' },
  ])('accepts a $type block', (block) => {
    expect(blockInput.safeParse(block).success).toBe(true);
  });

  it.each([
    [{ href: 'https://example.com/a' }],
    [{ href: 'http://example.com' }],
    [{ href: 'mailto:help@example.com' }],
    [{ articleId: uuid, anchor: 'step-2' }],
    [{ categoryId: uuid }],
    [{ record: { kind: 'sop', id: 'SOP-12' } }],
  ])('accepts the span link %j', (link) => {
    expect(blockInput.safeParse({ type: 'paragraph', text: { en: [{ text: 'see', link }] } }).success).toBe(true);
  });

  it.each([
    ['a javascript: href', { type: 'paragraph', text: { en: [{ text: 'x', link: { href: 'javascript:alert(1)' } }] } }],
    ['an article link that is not a UUID', { type: 'paragraph', text: { en: [{ text: 'x', link: { articleId: '12' } }] } }],
    ['a link with two targets', { type: 'paragraph', text: { en: [{ text: 'x', link: { categoryId: uuid, href: 'https://a.b' } }] } }],
    ['an unknown record kind', { type: 'paragraph', text: { en: [{ text: 'x', link: { record: { kind: 'user', id: '1' } } }] } }],
    ['an unknown mark', { type: 'paragraph', text: { en: [{ text: 'x', marks: ['underline'] }] } }],
    ['a third language', { type: 'paragraph', text: { fr: [{ text: 'x' }] } }],
    ['a heading of level 1', { type: 'heading', level: 1, text: t }],
    ['a heading of level 5', { type: 'heading', level: 5, text: t }],
    ['an unknown tone', { type: 'callout', tone: 'neutral', text: t }],
    ['an http image', { type: 'image', url: 'http://cdn.example.com/a.png' }],
    ['an http embed', { type: 'embed', url: 'http://example.com' }],
    ['an unknown block type', { type: 'video', url: 'https://example.com' }],
    ['an unknown field', { type: 'divider', colour: 'red' }],
    ['an id with a space', { id: 'a b', type: 'divider' }],
  ])('refuses %s', (_, block) => {
    expect(blockInput.safeParse(block).success).toBe(false);
  });

  it('allows 500 blocks and refuses 501', () => {
    const blocks = (n: number) => Array.from({ length: n }, () => ({ type: 'divider' }));
    expect(blocksInput.safeParse(blocks(500)).success).toBe(true);
    expect(blocksInput.safeParse(blocks(501)).success).toBe(false);
  });

  it('counts span length in characters, so Arabic is not penalised for its UTF-16 size', () => {
    const arabic = 'ب'.repeat(20_000);
    expect(blockInput.safeParse({ type: 'paragraph', text: { ar: [{ text: arabic }] } }).success).toBe(true);
    const emoji = '😀'.repeat(20_000); // 40,000 UTF-16 units, 20,000 characters
    expect(blockInput.safeParse({ type: 'paragraph', text: { en: [{ text: emoji }] } }).success).toBe(true);
    expect(blockInput.safeParse({ type: 'paragraph', text: { en: [{ text: `${emoji}x` }] } }).success).toBe(false);
  });

  it('reads the words of one language slot by slot, image alt text included', () => {
    const parsed = blockInput.parse({ type: 'image', url: 'https://a.example/i.png', alt: { ar: 'شعار' }, caption: t });
    expect(languageTextOf(parsed, 'ar')).toEqual(['أعد تعيين كلمة المرور', 'شعار']);
    expect(languageTextOf(parsed, 'en')).toEqual(['Reset your password', '']);
  });
});

describe('knowledge-bank block ids', () => {
  it('gives a block without an id a new one and keeps the ids that were sent', () => {
    let n = 0;
    const result = assignBlockIds([{ type: 'divider' }, { id: 'kept', type: 'divider' }], () => `new-${++n}`);
    expect(result).toEqual({
      ok: true,
      blocks: [
        { type: 'divider', id: 'new-1' },
        { id: 'kept', type: 'divider' },
      ],
    });
  });

  it('draws again when a generated id is already taken by a sent one', () => {
    const ids = ['kept', 'fresh'];
    const result = assignBlockIds([{ id: 'kept', type: 'divider' }, { type: 'divider' }], () => ids.shift() ?? 'x');
    expect(result.ok && result.blocks.map((block) => block.id)).toEqual(['kept', 'fresh']);
  });

  it('refuses two blocks with the same id', () => {
    const result = assignBlockIds([
      { id: 'a', type: 'divider' },
      { id: 'a', type: 'divider' },
    ]);
    expect(result).toEqual({ ok: false, duplicateIds: ['a'] });
  });

  it('generates UUIDs by default', () => {
    const result = assignBlockIds([{ type: 'divider' }]);
    expect(result.ok && result.blocks[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
