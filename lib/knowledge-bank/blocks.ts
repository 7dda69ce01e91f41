/**
 * The article body: typed blocks of bilingual rich text. Links are structured (`{href}`,
 * `{articleId}`, `{categoryId}`, `{record}`), never HTML, so link extraction, backlinks and link
 * checking read them exactly instead of parsing markup.
 */
import * as z from 'zod/mini';

export const BLOCK_LIMITS = {
  blocks: 500,
  spansPerText: 500,
  spanText: 20_000,
  listItems: 500,
  tableRows: 200,
  tableCells: 30,
  code: 100_000,
  codeLanguage: 50,
  url: 2048,
  alt: 1000,
  anchor: 200,
  blockId: 64,
} as const;

/** Characters as JSON Schema counts them (code points), so an Arabic letter or an emoji is one. */
function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

function text(max: number) {
  return z
    .string()
    .check(
      z.refine(
        (value) => value.length <= max || (value.length <= 2 * max && characterCount(value) <= max),
        `must be at most ${max} characters`,
      ),
    )
    .register(z.globalRegistry, { maxLength: max });
}

const httpsUrl = z
  .url({ protocol: /^https$/ })
  .check(z.maxLength(BLOCK_LIMITS.url))
  .register(z.globalRegistry, { format: 'uri', description: 'An https URL' });

/** Client-chosen ids are allowed (so a client can keep its own), within a safe alphabet. */
export const blockId = z
  .string()
  .check(z.minLength(1), z.maxLength(BLOCK_LIMITS.blockId), z.regex(/^[A-Za-z0-9_-]+$/, 'must use A-Z a-z 0-9 _ -'));

export const RECORD_KINDS = ['idea', 'sop', 'survey', 'journey'] as const;

export const spanLink = z.union([
  z.strictObject({
    href: z
      .url({ protocol: /^(https?|mailto)$/ })
      .check(z.maxLength(BLOCK_LIMITS.url))
      .register(z.globalRegistry, { description: 'External link: http, https or mailto' }),
  }),
  z.strictObject({
    articleId: z.uuid(),
    anchor: z.optional(blockId.register(z.globalRegistry, { description: 'A block id in the target article' })),
  }),
  z.strictObject({ categoryId: z.uuid() }),
  z.strictObject({
    record: z.strictObject({ kind: z.enum(RECORD_KINDS), id: text(200).check(z.minLength(1)) }),
  }),
]);
export type SpanLink = z.infer<typeof spanLink>;

export const MARKS = ['bold', 'italic', 'code'] as const;

export const span = z.strictObject({
  text: text(BLOCK_LIMITS.spanText),
  marks: z.optional(z.array(z.enum(MARKS)).check(z.maxLength(MARKS.length))),
  link: z.optional(spanLink),
});
export type Span = z.infer<typeof span>;

const spans = z.array(span).check(z.maxLength(BLOCK_LIMITS.spansPerText));

/** Bilingual rich text: either language may be absent (not yet written or not translated). */
export const richText = z.strictObject({ en: z.optional(spans), ar: z.optional(spans) });
export type RichText = z.infer<typeof richText>;

const plainBilingual = z.strictObject({
  en: z.optional(text(BLOCK_LIMITS.alt)),
  ar: z.optional(text(BLOCK_LIMITS.alt)),
});

const id = z.optional(blockId);

export const paragraphBlock = z.strictObject({ id, type: z.literal('paragraph'), text: richText });
export const headingBlock = z.strictObject({
  id,
  type: z.literal('heading'),
  level: z.int().check(z.minimum(2), z.maximum(4)),
  text: richText,
});
export const calloutBlock = z.strictObject({
  id,
  type: z.literal('callout'),
  tone: z.enum(['info', 'warning', 'success', 'danger']),
  text: richText,
});
export const quoteBlock = z.strictObject({ id, type: z.literal('quote'), text: richText });
export const listBlock = z.strictObject({
  id,
  type: z.literal('list'),
  ordered: z.boolean(),
  items: z.array(richText).check(z.maxLength(BLOCK_LIMITS.listItems)),
});
export const tableBlock = z.strictObject({
  id,
  type: z.literal('table'),
  rows: z
    .array(z.array(richText).check(z.maxLength(BLOCK_LIMITS.tableCells)))
    .check(z.maxLength(BLOCK_LIMITS.tableRows)),
});
export const faqBlock = z.strictObject({ id, type: z.literal('faq'), question: richText, answer: richText });
export const imageBlock = z.strictObject({
  id,
  type: z.literal('image'),
  url: httpsUrl,
  alt: z.optional(plainBilingual),
  caption: z.optional(richText),
});
export const codeBlock = z.strictObject({
  id,
  type: z.literal('code'),
  language: z.optional(text(BLOCK_LIMITS.codeLanguage)),
  code: text(BLOCK_LIMITS.code),
});
export const embedBlock = z.strictObject({ id, type: z.literal('embed'), url: httpsUrl });
export const dividerBlock = z.strictObject({ id, type: z.literal('divider') });

export const blockInput = z.discriminatedUnion('type', [
  paragraphBlock,
  headingBlock,
  calloutBlock,
  quoteBlock,
  listBlock,
  tableBlock,
  faqBlock,
  imageBlock,
  codeBlock,
  embedBlock,
  dividerBlock,
]);
export type BlockInput = z.infer<typeof blockInput>;
export type BlockType = BlockInput['type'];

export const blocksInput = z
  .array(blockInput)
  .check(z.maxLength(BLOCK_LIMITS.blocks, `must hold at most ${BLOCK_LIMITS.blocks} blocks`));

/** A stored block: the same shape, with its id always set. */
export type Block = BlockInput & { id: string };

export type Language = 'en' | 'ar';
export const LANGUAGES: readonly Language[] = ['en', 'ar'];
export const otherLanguage = (language: Language): Language => (language === 'en' ? 'ar' : 'en');

/** Every rich text of a block, in document order (what translation and link extraction walk). */
export function richTextsOf(block: BlockInput): RichText[] {
  switch (block.type) {
    case 'paragraph':
    case 'heading':
    case 'callout':
    case 'quote':
      return [block.text];
    case 'list':
      return block.items;
    case 'table':
      return block.rows.flat();
    case 'faq':
      return [block.question, block.answer];
    case 'image':
      return block.caption ? [block.caption] : [];
    case 'code':
    case 'embed':
    case 'divider':
      return [];
  }
}

/**
 * The words of one language in a block, one string per text slot (empty where that slot has none),
 * so "the English changed" is a plain comparison. Code and URLs are language-neutral.
 */
export function languageTextOf(block: BlockInput, language: Language): string[] {
  const parts = richTextsOf(block).map((rich) => (rich[language] ?? []).map((s) => s.text).join(''));
  if (block.type === 'image') parts.push(block.alt?.[language] ?? '');
  return parts;
}

export function hasLanguageText(block: BlockInput, language: Language): boolean {
  return languageTextOf(block, language).some((part) => part.trim().length > 0);
}
