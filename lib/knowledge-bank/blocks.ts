/**
 * The article body: typed blocks of bilingual rich text. Links are structured (`{href}`,
 * `{articleId}`, `{categoryId}`, `{record}`), never HTML, so link extraction, backlinks and link
 * checking read them exactly instead of parsing markup.
 */
import * as z from 'zod/mini';
import { atMostCharacters, named } from '../platform/schemas.ts';

const BLOCK_LIMITS = {
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

function text(max: number) {
  return z.string().check(atMostCharacters(max)).register(z.globalRegistry, { maxLength: max });
}

const httpsUrl = z
  .url({ protocol: /^https$/ })
  .check(z.maxLength(BLOCK_LIMITS.url))
  .register(z.globalRegistry, { format: 'uri', description: 'An https URL' });

/** Client-chosen ids are allowed (so a client can keep its own), within a safe alphabet. */
/** A new schema each call, so each use carries its own OpenAPI description. */
export const blockIdSchema = (description: string) =>
  z
    .string()
    .check(z.minLength(1), z.maxLength(BLOCK_LIMITS.blockId), z.regex(/^[A-Za-z0-9_-]+$/, 'must use A-Z a-z 0-9 _ -'))
    .register(z.globalRegistry, { description });

const RECORD_KINDS = ['idea', 'sop', 'survey', 'journey'] as const;

const spanLink = z.union([
  z.strictObject({
    href: z
      .url({ protocol: /^(https?|mailto)$/ })
      .check(z.maxLength(BLOCK_LIMITS.url))
      .register(z.globalRegistry, { description: 'External link: http, https or mailto' }),
  }),
  z.strictObject({
    articleId: z.uuid(),
    anchor: z.optional(blockIdSchema('A block id in the target article')),
  }),
  z.strictObject({ categoryId: z.uuid() }),
  z.strictObject({
    record: z.strictObject({ kind: z.enum(RECORD_KINDS), id: text(200).check(z.minLength(1)) }),
  }),
]);
export type SpanLink = z.infer<typeof spanLink>;

const MARKS = ['bold', 'italic', 'code'] as const;

const span = named(
  'RichTextSpan',
  z.strictObject({
    text: text(BLOCK_LIMITS.spanText),
    marks: z.optional(z.array(z.enum(MARKS)).check(z.maxLength(MARKS.length))),
    link: z.optional(spanLink),
  }),
);
export type Span = z.infer<typeof span>;

const spans = z.array(span).check(z.maxLength(BLOCK_LIMITS.spansPerText));

/** Bilingual rich text: either language may be absent (not yet written or not translated). */
const richText = named('RichText', z.strictObject({ en: z.optional(spans), ar: z.optional(spans) }));
export type RichText = z.infer<typeof richText>;

const plainBilingual = z.strictObject({
  en: z.optional(text(BLOCK_LIMITS.alt)),
  ar: z.optional(text(BLOCK_LIMITS.alt)),
});

const id = z.optional(blockIdSchema('Keep it when sending the block back: its translation status follows it'));

/** A block's schema: its optional id, its `type`, its own fields, and what the document says of it. */
function block<T extends string, F extends z.core.$ZodLooseShape>(type: T, fields: F, description: string) {
  return z.strictObject({ id, type: z.literal(type), ...fields }).register(z.globalRegistry, { description });
}

const paragraphBlock = block('paragraph', { text: richText }, 'A paragraph of bilingual rich text');
const headingBlock = block(
  'heading',
  { level: z.int().check(z.minimum(2), z.maximum(4)), text: richText },
  'A section heading, level 2 to 4',
);
const calloutBlock = block(
  'callout',
  { tone: z.enum(['info', 'warning', 'success', 'danger']), text: richText },
  'A highlighted note with a tone: info, warning, success or danger',
);
const quoteBlock = block('quote', { text: richText }, 'A quotation');
const listBlock = block(
  'list',
  { ordered: z.boolean(), items: z.array(richText).check(z.maxLength(BLOCK_LIMITS.listItems)) },
  'A bulleted (`ordered: false`) or numbered list; each item is bilingual rich text',
);
const tableBlock = block(
  'table',
  { rows: z.array(z.array(richText).check(z.maxLength(BLOCK_LIMITS.tableCells))).check(z.maxLength(BLOCK_LIMITS.tableRows)) },
  'A table: rows of cells, each cell bilingual rich text',
);
const faqBlock = block('faq', { question: richText, answer: richText }, 'A question and its answer');
const imageBlock = block(
  'image',
  { url: httpsUrl, alt: z.optional(plainBilingual), caption: z.optional(richText) },
  'An image by https URL, with plain-text alt text per language and a rich-text caption',
);
const codeBlock = block(
  'code',
  { language: z.optional(text(BLOCK_LIMITS.codeLanguage)), code: text(BLOCK_LIMITS.code) },
  'Code, language-neutral (not translated)',
);
const embedBlock = block('embed', { url: httpsUrl }, 'Embedded content by https URL');
const dividerBlock = block('divider', {}, 'A horizontal divider');

/** Each block type's schema, as sent (the returned blocks extend each one: lib/knowledge-bank/schemas.ts). */
export const blockSchemas = [
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
] as const;

export const blockInput = named('Block', z.discriminatedUnion('type', blockSchemas));
export type BlockInput = z.infer<typeof blockInput>;

export const blocksInput = z.array(blockInput).check(z.maxLength(BLOCK_LIMITS.blocks, `must hold at most ${BLOCK_LIMITS.blocks} blocks`));

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
