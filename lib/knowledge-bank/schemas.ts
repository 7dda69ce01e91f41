/**
 * Schemas of the Knowledge Bank area: path parameters, write bodies, queries and the records it
 * returns. Blocks and spans are in blocks.ts (shared with the pure rules). Lengths are characters.
 */
import * as z from 'zod/mini';
import { identifierSchema } from '../platform/identifiers.ts';
import { atMostCharacters, named, pageQueryShape, timestamp } from '../platform/schemas.ts';
import { blockIdSchema, blockSchemas, blocksInput, LANGUAGES } from './blocks.ts';
import { SLUG_MAX, SLUG_PATTERN } from './slugs.ts';

const KB_LIMITS = { name: 200, description: 2000, title: 200, summary: 1000, tags: 20, tag: 50 } as const;

function text(max: number) {
  return z.string().check(atMostCharacters(max)).register(z.globalRegistry, { maxLength: max });
}

/**
 * A name, title or tag: not blank when given. Said as a pattern (a character other than white
 * space, as `trim` counts it), so the document refuses what the API refuses.
 */
const words = (max: number) => text(max).check(z.regex(/\S/, 'must not be blank'));
/** Optional text a client may clear with null (and send back as GET returned it). */
const optional = (schema: z.ZodMiniType<string>) => z.optional(z.nullable(schema));

const slug = identifierSchema({
  pattern: SLUG_PATTERN,
  patternMessage: 'must be lowercase letters (any script, with their combining marks) and digits, in words joined by single hyphens',
  maxCharacters: SLUG_MAX,
  description:
    'Unique in the workspace among its kind; lowercase letters of any script (with the combining marks their script writes them with) and digits, joined by hyphens',
});

const visibility = z.enum(['public', 'internal']);
const language = z.enum(LANGUAGES as ['en', 'ar']);
const tags = z.array(words(KB_LIMITS.tag)).check(z.maxLength(KB_LIMITS.tags, `must hold at most ${KB_LIMITS.tags} tags`));

// ---------------------------------------------------------------- path parameters

export const categoryIdParams = z.strictObject({ categoryId: z.uuid() });
export const articleIdParams = z.strictObject({ articleId: z.uuid() });
export const revisionParams = z.strictObject({
  articleId: z.uuid(),
  revision: z.pipe(z.string().check(z.regex(/^[1-9]\d{0,8}$/, 'must be a revision number (1, 2, …)')), z.transform(Number)),
});

// ---------------------------------------------------------------- categories

const atLeastOneName = (body: { nameEn?: string | null; nameAr?: string | null }) =>
  Boolean(body.nameEn?.trim()) || Boolean(body.nameAr?.trim());

/** The fields a category is written with: a create and a patch take the same ones, all optional. */
const categoryFields = () => ({
  parentId: z.optional(z.nullable(z.uuid())),
  nameEn: optional(words(KB_LIMITS.name)),
  nameAr: optional(words(KB_LIMITS.name)),
  descriptionEn: optional(text(KB_LIMITS.description)),
  descriptionAr: optional(text(KB_LIMITS.description)),
  slug: z.optional(slug),
  position: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
  visibility: z.optional(visibility),
});

/** A create also needs a name in at least one language. */
export const categoryCreate = z
  .strictObject(categoryFields())
  .check(z.refine(atLeastOneName, { message: 'nameEn or nameAr is required', path: ['nameEn'] }));
export type CategoryCreate = z.infer<typeof categoryCreate>;

export const categoryPatch = z.strictObject(categoryFields());
export type CategoryPatch = z.infer<typeof categoryPatch>;

export const category = named(
  'Category',
  z.object({
    id: z.uuid(),
    parentId: z.nullable(z.uuid()),
    depth: z.int().register(z.globalRegistry, { description: '1 for a top-level category, at most 3' }),
    nameEn: z.nullable(z.string()),
    nameAr: z.nullable(z.string()),
    descriptionEn: z.nullable(z.string()),
    descriptionAr: z.nullable(z.string()),
    slug: z.string(),
    position: z.int(),
    visibility,
    articleCount: z.int(),
    version: z.int(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type Category = z.infer<typeof category>;

// ---------------------------------------------------------------- articles

const draftFields = {
  titleEn: optional(words(KB_LIMITS.title)),
  titleAr: optional(words(KB_LIMITS.title)),
  summaryEn: optional(text(KB_LIMITS.summary)),
  summaryAr: optional(text(KB_LIMITS.summary)),
};

export const articleCreate = z.strictObject({
  categoryId: z.uuid(),
  sourceLanguage: z.optional(language),
  ...draftFields,
  tags: z.optional(tags),
  visibility: z.optional(visibility),
  slug: z.optional(slug),
  blocks: z.optional(blocksInput),
});
export type ArticleCreate = z.infer<typeof articleCreate>;

export const articlePatch = z.strictObject({
  categoryId: z.optional(z.uuid()),
  tags: z.optional(tags),
  visibility: z.optional(visibility),
  slug: z.optional(slug),
});
export type ArticlePatch = z.infer<typeof articlePatch>;

export const draftWrite = z.strictObject({ ...draftFields, blocks: z.optional(blocksInput) });
export type DraftWrite = z.infer<typeof draftWrite>;

const blockTranslation = z.enum(['complete', 'missing', 'outdated']);
const languageStatus = z.enum(['complete', 'partial', 'outdated', 'missing']);
const translations = named('ArticleTranslations', z.object({ en: languageStatus, ar: languageStatus }));

const returnedBlockFields = {
  id: blockIdSchema("The block's id"),
  translation: blockTranslation.register(z.globalRegistry, {
    description: "This block in the language that is not the article's source: complete, missing or outdated",
  }),
};

/**
 * A returned block: as sent, plus its id and the status of its translation. Each type is extended
 * on its own (not an intersection with the strict input union, whose JSON Schema no returned block
 * could satisfy: every branch forbids the added properties).
 */
const returned = <S extends (typeof blockSchemas)[number]>(schema: S) => z.extend(schema, returnedBlockFields);
const blockOutput = named(
  'ArticleBlock',
  z.discriminatedUnion('type', [
    returned(blockSchemas[0]),
    returned(blockSchemas[1]),
    returned(blockSchemas[2]),
    returned(blockSchemas[3]),
    returned(blockSchemas[4]),
    returned(blockSchemas[5]),
    returned(blockSchemas[6]),
    returned(blockSchemas[7]),
    returned(blockSchemas[8]),
    returned(blockSchemas[9]),
    returned(blockSchemas[10]),
  ]),
);
// A block type added to blockSchemas must be added above too.
if (blockOutput.def.options.length !== blockSchemas.length) throw new Error('blockOutput misses a block type of blockSchemas');

const articleStatus = z.enum(['draft', 'published', 'unpublished']);

const articleMetadataShape = {
  id: z.uuid(),
  categoryId: z.uuid(),
  slug: z.string(),
  sourceLanguage: language,
  status: articleStatus,
  visibility,
  tags: z.array(z.string()),
  titleEn: z.nullable(z.string()),
  titleAr: z.nullable(z.string()),
  summaryEn: z.nullable(z.string()),
  summaryAr: z.nullable(z.string()),
  liveRevision: z.nullable(z.int()).register(z.globalRegistry, { description: 'The revision readers see; null when not live' }),
  draftRevision: z.int().register(z.globalRegistry, {
    description: 'The revision the draft becomes when published; equals the latest revision while it has no unpublished changes',
  }),
  hasUnpublishedChanges: z.boolean(),
  translations,
  version: z.int(),
  createdAt: timestamp,
  updatedAt: timestamp,
  publishedAt: z.nullable(timestamp),
};

export const articleSummary = named('ArticleSummary', z.object(articleMetadataShape));
export const article = named(
  'Article',
  z.object({
    ...articleMetadataShape,
    view: z.enum(['draft', 'live']).register(z.globalRegistry, { description: 'Which content this is: the draft or the live revision' }),
    blocks: z.array(blockOutput),
  }),
);
export type ArticleSummary = z.infer<typeof articleSummary>;
export type Article = z.infer<typeof article>;

export const viewQuery = z.strictObject({ view: z.optional(z.enum(['live', 'draft'])) });
export const deleteArticleQuery = z.strictObject({
  force: z.optional(z.enum(['true', 'false'])).register(z.globalRegistry, {
    description: '`true` deletes even when published articles link here',
  }),
});

export const articleListQuery = z.strictObject({
  ...pageQueryShape,
  categoryId: z.optional(z.uuid()),
  status: z.optional(articleStatus),
  tag: z.optional(text(KB_LIMITS.tag)),
  visibility: z.optional(visibility),
});

export const translationsQuery = z.strictObject({
  ...pageQueryShape,
  locale: z.optional(language),
  status: z.optional(z.enum(['missing', 'partial', 'outdated'])),
});

// ---------------------------------------------------------------- revisions, links, backlinks

const revisionShape = {
  revision: z.int(),
  publishedAt: timestamp,
  publishedBy: z.string().register(z.globalRegistry, { description: 'The id of the Developer key that published it' }),
  titleEn: z.nullable(z.string()),
  titleAr: z.nullable(z.string()),
  summaryEn: z.nullable(z.string()),
  summaryAr: z.nullable(z.string()),
};
export const revisionSummary = named('ArticleRevisionSummary', z.object(revisionShape));
export const revision = named('ArticleRevision', z.object({ ...revisionShape, blocks: z.array(blockOutput) }));
export type RevisionSummary = z.infer<typeof revisionSummary>;
export type Revision = z.infer<typeof revision>;

export const link = named(
  'ArticleLink',
  z.object({
    id: z.string(),
    blockId: z.string(),
    kind: z.enum(['article', 'category', 'record', 'external']),
    target: z.string().register(z.globalRegistry, {
      description: 'Article or category id, `<kind>:<id>` for a record, the URL of an external link',
    }),
    anchor: z.optional(z.string()),
    status: z.enum(['ok', 'broken', 'unpublished', 'unchecked', 'redirected']).register(z.globalRegistry, {
      description:
        'Internal article and category links: checked on every read (`ok`, `broken` = gone, `unpublished`). ' +
        'External links: `unchecked` until the link checker runs. Record links: `unchecked`.',
    }),
    httpStatus: z.nullable(z.int()),
    checkedAt: z.nullable(timestamp),
  }),
);
export type Link = z.infer<typeof link>;

export const backlink = named(
  'ArticleBacklink',
  z.object({
    articleId: z.uuid(),
    views: z.array(z.enum(['live', 'draft'])).register(z.globalRegistry, {
      description: 'Where the link is: in the live revision of that article, in its draft, or both',
    }),
  }),
);
export type Backlink = z.infer<typeof backlink>;

export const translationItem = named(
  'ArticleTranslationStatus',
  z.object({
    id: z.uuid(),
    slug: z.string(),
    categoryId: z.uuid(),
    sourceLanguage: language,
    status: articleStatus,
    titleEn: z.nullable(z.string()),
    titleAr: z.nullable(z.string()),
    translations,
    updatedAt: timestamp,
  }),
);
export type TranslationStatus = z.infer<typeof translationItem>;
