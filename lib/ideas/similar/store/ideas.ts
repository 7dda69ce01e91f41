/**
 * What similar-idea lookups read, all inside the workspace's partition (entities.ts), so another
 * workspace's ideas can never reach its index:
 *   ideaTextsSince  Query over the ideas' range, ascending from a creation time: the whole workspace
 *                   (a build: one call per 1 MB page) or only the last seconds' ideas (one call)
 *   newestIdeaTexts Query over the ideas' range, descending, a fixed number of items, eventually
 *                   consistent (one call): what a create's possible duplicates catch up with
 *   ideasByIds      BatchGetItem of the candidates, consistent unless asked not to, public attributes
 *                   only (one call)
 */

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../../../platform/data/batch.ts';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { workspacePk } from '../../../platform/data/keys.ts';
import { projection } from '../../../platform/data/projection.ts';
import { queryAll } from '../../../platform/data/query-all.ts';
import { ideaEntity, PUBLIC_IDEA_ATTRIBUTES } from '../../entities.ts';
import { toIdea } from '../../record.ts';
import type { Idea } from '../../schemas.ts';
import type { IdeaText } from '../index.ts';

const { idea: ideaKey, list: ideaList } = ideaEntity.keys;
const TEXT_ATTRIBUTES = ['id', 'title', 'titleAr', 'description'] as const;

/**
 * The lowest idea key of a millisecond: an idea id is a UUIDv7 (record.ts), whose first 48 bits,
 * the first 12 hex digits of its text, are its creation time, so every idea created at or after
 * `ms` sorts at or after this key.
 */
function firstKeyAt(workspace: string, ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return ideaKey(workspace, `${hex.slice(0, 8)}-${hex.slice(8, 12)}`).sk;
}

/**
 * The text of every idea created since `sinceMs` (all of them without it), oldest first, read
 * consistently so an idea created a moment ago is found. Only idea items count, should the range
 * ever hold others.
 */
export async function ideaTextsSince(workspace: string, sinceMs?: number): Promise<IdeaText[]> {
  const names = projection(TEXT_ATTRIBUTES);
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    FilterExpression: '#entity = :entity',
    ExpressionAttributeNames: { ...names.ExpressionAttributeNames, '#entity': 'entity' },
    ExpressionAttributeValues: {
      ':pk': workspacePk(workspace),
      // BETWEEN is inclusive: from just after the known id (its key plus the lowest character).
      ':from': sinceMs === undefined ? ideaList.from : firstKeyAt(workspace, sinceMs),
      ':to': ideaList.to,
      ':entity': ideaEntity.name,
    },
    ProjectionExpression: names.ProjectionExpression,
    ConsistentRead: true,
  });
  return items.map(ideaTextOf);
}

/** An idea item's text, as the index reads it. */
const ideaTextOf = (item: Record<string, unknown>): IdeaText => ({
  id: item.id as string,
  title: item.title as string,
  titleAr: (item.titleAr as string | undefined) ?? null,
  description: (item.description as string | undefined) ?? null,
});

/**
 * The text of the workspace's `count` newest ideas, newest first: a read whose units do not grow
 * with the rate ideas are created at, eventually consistent (half the units; an idea a replica has
 * not seen yet, within a second, is found by a later read).
 */
export async function newestIdeaTexts(workspace: string, count: number): Promise<IdeaText[]> {
  const names = projection(TEXT_ATTRIBUTES);
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeNames: names.ExpressionAttributeNames,
      // Up to the last idea's key, not the counter that ends the list's range (`~` sorts after an id).
      ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':from': ideaList.from, ':to': `${ideaList.from}~` },
      ProjectionExpression: names.ProjectionExpression,
      ScanIndexForward: false,
      Limit: count,
    }),
  );
  return Items.map(ideaTextOf);
}

/** The ideas of `ids` as they are now (consistent unless asked not to, public attributes only); a deleted one is missing. */
export async function ideasByIds(workspace: string, ids: readonly string[], consistent = true): Promise<Map<string, Idea>> {
  if (ids.length === 0) return new Map();
  const items = await getMany(
    ids.map((id) => ideaKey(workspace, id)),
    { attributes: PUBLIC_IDEA_ATTRIBUTES, consistent },
  );
  return new Map(items.flatMap((item) => (item ? [[item.id as string, toIdea(item)] as const] : [])));
}
