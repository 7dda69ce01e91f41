/**
 * The survey publish gate's index (read by lib/journeys/survey-bindings.ts): one
 * `keys.surveyMetricBinding` item per survey and journey whose published version has metric cells
 * following that survey without pinning a version. Written by publish and removed by archive, each
 * in its own transaction, so the index holds exactly what the journeys people can see follow. The
 * journey item lists the surveys in `publishedMetricSurveys`, so archive knows which items to delete.
 */
import type { Item } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import type { NamedWrites } from '../../platform/data/transact.ts';
import { METRIC_BINDING_ENTITY } from '../survey-bindings.ts';

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
            ...keys.surveyMetricBinding(workspace, surveyId, journeyId),
            entity: METRIC_BINDING_ENTITY,
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
      { Delete: { TableName: tableName, Key: keys.surveyMetricBinding(workspace, surveyId, journeyId) } },
    ]),
  );
}
