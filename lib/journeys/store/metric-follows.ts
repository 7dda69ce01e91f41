/**
 * The survey publish gate's index (read by lib/journeys/survey-bindings.ts): one
 * `journeyMetricBindingEntity` item per survey and journey whose published version has metric cells
 * following that survey without pinning a version. Written by publish and removed by archive, each
 * in its own transaction, so the index holds exactly what the journeys people can see follow. The
 * journey item lists the surveys in `publishedMetricSurveys`, so archive knows which items to delete.
 */
import { getMany, type Item } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import type { NamedWrites } from '../../platform/data/transact.ts';
import { journeyEntity, journeyMetricBindingEntity } from '../entities.ts';

/** The surveys the journey's published version follows, as its item lists them. */
export function publishedMetricSurveysOf(journey: Item): string[] {
  return typeof journey.publishedMetricSurveys === 'string' ? (JSON.parse(journey.publishedMetricSurveys) as string[]) : [];
}

/** One Put per survey `versionId` follows (with the questions it follows), named `follow <surveyId>`. */
export function followAll(
  workspace: string,
  followed: ReadonlyMap<string, string[]>,
  journeyId: string,
  versionId: string,
  now: string,
): NamedWrites {
  return Object.fromEntries(
    [...followed].map(([surveyId, questionIds]) => [
      `follow ${surveyId}`,
      {
        Put: {
          TableName: tableName,
          Item: {
            ...journeyMetricBindingEntity.keys.binding(workspace, surveyId, journeyId),
            entity: journeyMetricBindingEntity.name,
            surveyId,
            journeyId,
            versionId,
            questionIds,
            updatedAt: now,
          },
        },
      },
    ]),
  );
}

/** One Delete per survey the journey no longer follows, named `unfollow <surveyId>`. */
export function unfollowAll(workspace: string, surveyIds: Iterable<string>, journeyId: string): NamedWrites {
  return Object.fromEntries(
    [...surveyIds].map((surveyId) => [
      `unfollow ${surveyId}`,
      { Delete: { TableName: tableName, Key: journeyMetricBindingEntity.keys.binding(workspace, surveyId, journeyId) } },
    ]),
  );
}

/**
 * The binding items whose journey is still there and not archived. Archives before binding items
 * were deleted with the journey left theirs behind, so the items that would hold a publish back
 * are checked against their journeys: one BatchGetItem, only when the Query found any.
 */
async function withoutArchivedJourneys(workspace: string, items: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  if (items.length === 0) return items;
  const journeyIds = [...new Set(items.map((item) => item.journeyId as string))];
  const journeys = await getMany(
    journeyIds.map((journeyId) => journeyEntity.keys.journey(workspace, journeyId)),
    { attributes: ['archivedAt'] },
  );
  const live = new Set(journeyIds.filter((_, n) => journeys[n] && journeys[n].archivedAt === undefined));
  return items.filter((item) => live.has(item.journeyId as string));
}

/** The binding items of a survey whose journey is live: one Query, and a BatchGetItem of their journeys when it finds any. */
export async function listLiveMetricFollows(workspace: string, surveyId: string): Promise<Item[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':prefix': journeyMetricBindingEntity.keys.prefix(surveyId) },
    ConsistentRead: true,
  });
  return withoutArchivedJourneys(workspace, items);
}
