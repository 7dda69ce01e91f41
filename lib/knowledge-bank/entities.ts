/**
 * The items of the knowledge bank (lib/platform/data/entity.ts). Every sort key starts with `KB`, and
 * each kind has its own prefix so one begins_with Query lists exactly one kind (search and link
 * checking read `KBART#` and `KBLINKS#`). Article and category ids are UUIDs ([0-9a-f-], all above '#').
 *   KBCAT#<id>                      a category (the whole tree is one Query of this prefix)
 *   KBCATSLUG#<slug>                claims a category slug (conditional put: unique per workspace)
 *   KBART#<id>                      an article's metadata: small, so lists are one Query
 *   KBARTSLUG#<slug>                claims an article slug
 *   KBDOC#<id>#DRAFT|LIVE|REV#<n>   compressed content: the draft, a copy of the live revision, each revision
 *   KBLINKS#<id>#DRAFT|LIVE         the outgoing links of the draft and of the live revision
 *   KBBACK#<target>#DRAFT|LIVE#<source>  one per article linking to <target> (an article or a category)
 */
import { defineEntity } from '../platform/data/entity.ts';
import { workspacePk } from '../platform/data/keys.ts';

type View = 'DRAFT' | 'LIVE';

export const kbCategoryEntity = defineEntity({
  name: 'KbCategory',
  keys: {
    category: (workspace: string, id: string) => ({ pk: workspacePk(workspace), sk: `KBCAT#${id}` }),
    prefix: 'KBCAT#',
    /** Categories and their slug claims, adjacent: the tree and the taken slugs in one Query. */
    treeRange: { from: 'KBCAT#', to: 'KBCATSLUG$' },
  },
});

export const kbCategorySlugEntity = defineEntity({
  name: 'KbCategorySlug',
  keys: {
    slug: (workspace: string, slug: string) => ({ pk: workspacePk(workspace), sk: `KBCATSLUG#${slug}` }),
    prefix: 'KBCATSLUG#',
  },
});

/** An article's metadata: every publish, unpublish, delete and metadata change rewrites it (the search builder reads its changes). */
export const kbArticleEntity = defineEntity({
  name: 'KbArticle',
  keys: {
    article: (workspace: string, id: string) => ({ pk: workspacePk(workspace), sk: `KBART#${id}` }),
    prefix: 'KBART#',
  },
});

export const kbArticleSlugEntity = defineEntity({
  name: 'KbArticleSlug',
  keys: {
    slug: (workspace: string, slug: string) => ({ pk: workspacePk(workspace), sk: `KBARTSLUG#${slug}` }),
    prefix: 'KBARTSLUG#',
  },
});

/** An article's content, compressed: the draft, a copy of the live revision, and each revision. */
export const kbContentEntity = defineEntity({
  name: 'KbContent',
  keys: {
    draft: (workspace: string, articleId: string) => ({ pk: workspacePk(workspace), sk: `KBDOC#${articleId}#DRAFT` }),
    live: (workspace: string, articleId: string) => ({ pk: workspacePk(workspace), sk: `KBDOC#${articleId}#LIVE` }),
    /** Zero-padded so revisions sort by number. */
    revision: (workspace: string, articleId: string, revision: number) => ({
      pk: workspacePk(workspace),
      sk: `KBDOC#${articleId}#REV#${String(revision).padStart(9, '0')}`,
    }),
    revisionPrefix: (articleId: string) => `KBDOC#${articleId}#REV#`,
    /** Every document of an article: draft, live copy, revisions. */
    prefix: (articleId: string) => `KBDOC#${articleId}#`,
  },
});

/** The outgoing links of an article's draft and of its live revision. */
export const kbLinksEntity = defineEntity({
  name: 'KbLinks',
  keys: {
    links: (workspace: string, articleId: string, view: View) => ({ pk: workspacePk(workspace), sk: `KBLINKS#${articleId}#${view}` }),
    /** Every article's outgoing links (the link checker reads this prefix). */
    prefix: 'KBLINKS#',
    /** Which view's links an item holds, by its sort key. */
    viewOf: (sk: string): View => (sk.endsWith('#LIVE') ? 'LIVE' : 'DRAFT'),
  },
});

/** One per article linking to a target (an article or a category), in each view. */
export const kbBacklinkEntity = defineEntity({
  name: 'KbBacklink',
  keys: {
    backlink: (workspace: string, targetId: string, view: View, sourceId: string) => ({
      pk: workspacePk(workspace),
      sk: `KBBACK#${targetId}#${view}#${sourceId}`,
    }),
    prefix: (targetId: string) => `KBBACK#${targetId}#`,
  },
});

export const KNOWLEDGE_BANK_ENTITIES = [
  kbCategoryEntity,
  kbCategorySlugEntity,
  kbArticleEntity,
  kbArticleSlugEntity,
  kbContentEntity,
  kbLinksEntity,
  kbBacklinkEntity,
] as const;
