/**
 * The summary's day buckets (contract §2): one item per survey, UTC day and version holding that
 * version's catalog and the flat counters of lib/surveys/summary/counts.ts. Written only by the
 * stream aggregator (aggregator.ts); read here with one Query of a range of days.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { keys } from '../../../platform/data/keys.ts';
import type { Catalog } from '../catalog.ts';
import type { Counts } from '../counts.ts';
import { dayBucketEntity } from '../entities.ts';

export const DAY_BUCKET_ENTITY = 'SurveyDayBucket';

/** A range covering every day a survey can have (days are `YYYY-MM-DD`). */
export const ALL_DAYS = { from: '0000-01-01', to: '9999-12-31' } as const;

export interface DayBucket {
  day: string;
  versionId: string;
  catalog: Catalog;
  counts: Counts;
}

function toDayBucket(item: Record<string, unknown>): DayBucket {
  return {
    day: item.day as string,
    versionId: item.versionId as string,
    catalog: (item.catalog ?? {}) as Catalog,
    counts: (item.counts ?? {}) as Counts,
  };
}

/**
 * Every version's buckets of the days `from`…`to` (inclusive), oldest day first: one Query, paged only
 * past 1 MB of buckets (a survey answered every day for years). Strongly consistent, so a summary
 * shows every batch the aggregator has committed.
 */
export async function readDayBuckets(workspace: string, surveyId: string, from: string, to: string): Promise<DayBucket[]> {
  const range = dayBucketEntity.keys.days(surveyId, from, to);
  const buckets: DayBucket[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':from': range.from, ':to': range.to },
        // Several of these names are reserved words in DynamoDB expressions.
        ProjectionExpression: '#day, #versionId, #catalog, #counts',
        ExpressionAttributeNames: { '#day': 'day', '#versionId': 'versionId', '#catalog': 'catalog', '#counts': 'counts' },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) buckets.push(toDayBucket(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return buckets;
}
