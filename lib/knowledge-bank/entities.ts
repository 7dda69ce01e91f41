/**
 * The items of the knowledge bank (lib/platform/data/entity.ts). Every sort key starts with `KB`, and
 * each kind has its own prefix so one begins_with Query lists exactly one kind.
 */
import { defineEntity } from '../platform/data/entity.ts';
import { keys } from '../platform/data/keys.ts';
import { KB_ENTITY } from './record.ts';

/** An article's metadata (`KBART#<id>`): small, so lists are one Query; every publish, unpublish, delete and metadata change rewrites it. */
export const kbArticleEntity = defineEntity({
  name: KB_ENTITY.article,
  keys: { article: keys.kbArticle, prefix: keys.kbArticlePrefix },
});
