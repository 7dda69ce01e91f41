/**
 * The rate budget's slot items (lib/webhooks/rate-budget.ts says why they are shaped so): one per
 * (webhook, shard, clock second), `WHRATE#<webhookId>#<shard>#<second>`, kept an hour (TTL). A try
 * takes a slot with one unconditional UpdateItem (`ADD taken 1`, answering the new count), so a full
 * second costs the same one write unit as a free one and never fails a condition.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { TABLE } from '../../platform/data/table.ts';
import { webhookRateSlotEntity } from '../entities.ts';
import { secondOf, shardsFor, verdictOf } from '../rate-budget.ts';

/** Take a slot of this second for one delivery to a webhook limited to `rate` a second: go now, or when. */
export async function takeRateSlot(
  workspace: string,
  webhookId: string,
  rate: number,
  nowMs = Date.now(),
  random: () => number = Math.random,
): Promise<{ go: true } | { go: false; retryAtMs: number }> {
  const second = secondOf(nowMs);
  const shard = Math.floor(random() * shardsFor(rate));
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: webhookRateSlotEntity.keys.slot(workspace, webhookId, shard, second),
      UpdateExpression: 'ADD taken :one SET entity = :entity, #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
      ExpressionAttributeValues: {
        ':one': 1,
        ':entity': webhookRateSlotEntity.name,
        ':ttl': webhookRateSlotEntity.expiry(nowMs)[TABLE.ttlAttribute],
      },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return verdictOf(rate, shard, second, Attributes?.taken as number, random);
}
