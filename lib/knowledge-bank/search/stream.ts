/**
 * Which table-stream records change what search shows, and the coalescing of a batch into one
 * index update per workspace: a burst of 100 publishes in one workspace arrives as one batch (the
 * event source mapping waits up to its batching window) and becomes one build.
 *
 * Only article metadata items (`entity: KbArticle`) reach the builder (the mapping's filter); of
 * those, only changes a reader of search would notice count: a draft save rewrites the item too,
 * but changes nothing that is live.
 */
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { StreamReading } from '../../platform/event-sources.ts';
import { kbArticleEntity } from '../entities.ts';

type Image = Record<string, AttributeValue> | undefined;

/** Attributes of an article item that the index holds or filters on (see documents.ts). */
const SEARCHED_ATTRIBUTES = ['status', 'liveRevision', 'publishedAt', 'live', 'slug', 'categoryId', 'visibility', 'tags', 'sourceLanguage'];

/** JSON with sorted map keys: DynamoDB does not promise the order of a map's attributes. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

const isArticle = (image: Image) => image?.entity?.S === kbArticleEntity.name;
const isPublished = (image: Image) => isArticle(image) && image?.status?.S === 'published';
const fingerprint = (image: Image) => canonical(SEARCHED_ATTRIBUTES.map((name) => image?.[name] ?? null));

/** The builder's reader (stream-readers.ts) reads article metadata items, nothing else. */
export const searchIndexReading: StreamReading = { name: 'Search index update', entities: [kbArticleEntity] };

export interface ArticleChange {
  workspace: string;
  articleId: string;
}

/** The article whose searchable state this record changes, or null when search is unaffected. */
export function searchChangeOf(record: DynamoDBRecord): ArticleChange | null {
  const oldImage = record.dynamodb?.OldImage;
  const newImage = record.dynamodb?.NewImage;
  if (!isArticle(oldImage) && !isArticle(newImage)) return null;
  // Neither side live: a draft being written. Both sides identical where search looks: a draft save.
  if (!isPublished(oldImage) && !isPublished(newImage)) return null;
  if (fingerprint(oldImage) === fingerprint(newImage)) return null;
  const image = newImage ?? oldImage;
  const pk = image?.pk?.S ?? record.dynamodb?.Keys?.pk?.S;
  const articleId = image?.id?.S;
  if (!pk?.startsWith('WS#') || !articleId) return null;
  return { workspace: pk.slice('WS#'.length), articleId };
}

export interface WorkspaceUpdate {
  workspace: string;
  articleIds: Set<string>;
  /** The stream position of its first record: where Lambda must resume if this update fails. */
  firstSequenceNumber: string;
}

/** One update per workspace, in the order workspaces first appear in the batch. */
export function coalesce(records: readonly DynamoDBRecord[]): WorkspaceUpdate[] {
  const updates = new Map<string, WorkspaceUpdate>();
  for (const record of records) {
    const change = searchChangeOf(record);
    if (!change) continue;
    let update = updates.get(change.workspace);
    if (!update) {
      update = { workspace: change.workspace, articleIds: new Set(), firstSequenceNumber: record.dynamodb?.SequenceNumber ?? '' };
      updates.set(change.workspace, update);
    }
    update.articleIds.add(change.articleId);
  }
  return [...updates.values()];
}
