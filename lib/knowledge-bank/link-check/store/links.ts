/**
 * The link checker's access patterns: every link item of a workspace (one Query; the external
 * links list reads them too), and recording results on the entries of those items.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { isConditionFailure } from '../../../platform/data/conditions.ts';
import { workspacePk } from '../../../platform/data/keys.ts';
import { queryAll } from '../../../platform/data/query-all.ts';
import { kbLinksEntity } from '../../entities.ts';
import type { CheckResult, LinkItem } from '../results.ts';

/** Every links item of the workspace (one Query), or only those of live revisions. */
export async function linkItemsOf(workspace: string, views: 'all' | 'live' = 'all'): Promise<LinkItem[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':prefix': kbLinksEntity.keys.prefix },
    ProjectionExpression: 'pk, sk, articleId, links',
  });
  const linkItems = items.map((item) => ({ ...(item as unknown as LinkItem), links: (item.links as LinkItem['links'] | undefined) ?? [] }));
  return views === 'all' ? linkItems : linkItems.filter((item) => kbLinksEntity.keys.viewOf(item.sk) === 'LIVE');
}

/** Entries updated per UpdateItem, well inside DynamoDB's 4 KB expression limit. */
const ENTRIES_PER_UPDATE = 10;

/**
 * Writes each result onto the link entries that point at its URL, by position, each position
 * guarded by the entry's id: a draft saved meanwhile (which rewrites the item) makes the write
 * fail instead of landing on another link, and that item keeps what it had until the next run.
 * Returns how many items were skipped that way.
 */
export async function recordResults(items: readonly LinkItem[], results: ReadonlyMap<string, CheckResult>): Promise<number> {
  let skipped = 0;
  for (const item of items) {
    const positions = item.links.flatMap((link, position) => (results.has(link.target) ? [position] : []));
    for (let start = 0; start < positions.length; start += ENTRIES_PER_UPDATE) {
      const chunk = positions.slice(start, start + ENTRIES_PER_UPDATE);
      const values: Record<string, unknown> = {};
      const sets: string[] = [];
      const conditions: string[] = [];
      for (const position of chunk) {
        const link = item.links[position]!;
        const result = results.get(link.target)!;
        const at = `links[${position}]`;
        sets.push(
          `${at}.#status = :s${position}`,
          `${at}.httpStatus = :h${position}`,
          `${at}.redirectTo = :r${position}`,
          `${at}.detail = :d${position}`,
          `${at}.checkedAt = :c${position}`,
        );
        conditions.push(`${at}.id = :id${position}`);
        Object.assign(values, {
          [`:s${position}`]: result.status,
          [`:h${position}`]: result.httpStatus,
          [`:r${position}`]: result.redirectTo,
          [`:d${position}`]: result.detail,
          [`:c${position}`]: result.checkedAt,
          [`:id${position}`]: link.id,
        });
      }
      try {
        await dynamo.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: `SET ${sets.join(', ')}`,
            ConditionExpression: conditions.join(' AND '),
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: values,
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        skipped++;
      }
    }
  }
  return skipped;
}
