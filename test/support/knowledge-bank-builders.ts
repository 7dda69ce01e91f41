/** Builders for knowledge-bank blocks and content, shared by unit and integration tests. */
import type { Block, RichText, Span } from '../../lib/knowledge-bank/blocks.ts';

const text = (en?: string, ar?: string): RichText => ({
  ...(en !== undefined ? { en: [{ text: en }] } : {}),
  ...(ar !== undefined ? { ar: [{ text: ar }] } : {}),
});

export const paragraph = (id: string, en?: string, ar?: string): Block => ({ id, type: 'paragraph', text: text(en, ar) });

const linkSpan = (label: string, link: Span['link']): Span => ({ text: label, link });

export function linkingParagraph(id: string, links: Array<Span['link']>): Block {
  return { id, type: 'paragraph', text: { en: links.map((link, i) => linkSpan(`link ${i}`, link)) } };
}

export const content = (blocks: Block[], titles: { titleEn?: string; titleAr?: string } = {}) => ({
  titleEn: titles.titleEn ?? null,
  titleAr: titles.titleAr ?? null,
  summaryEn: null,
  summaryAr: null,
  blocks,
});
