/**
 * The workspace's audience attribute catalog (`SURVEYAUDIENCE`), written by `cxctl audience set`
 * (lib/admin/audience.ts) and read by targeting rules. One GetItem.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import type { AudienceAttribute } from '../engine/targeting.ts';
import { surveyAudienceEntity } from '../entities.ts';

export const audienceKey = (workspace: string) => surveyAudienceEntity.keys.audience(workspace);

/** The attributes of a catalog item (none when the workspace has no catalog). */
export function audienceOf(item: Record<string, unknown> | undefined): AudienceAttribute[] {
  return typeof item?.attributes === 'string' ? (JSON.parse(item.attributes) as AudienceAttribute[]) : [];
}

export async function listAudienceAttributes(workspace: string): Promise<AudienceAttribute[]> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: audienceKey(workspace), ConsistentRead: true }));
  return audienceOf(Item);
}
