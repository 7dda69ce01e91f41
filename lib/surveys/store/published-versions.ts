/**
 * Publishing: which version of a survey is the published one. The survey holds
 * `publishedVersionId`; the version it names is `published`, the one before it `superseded`, and
 * the status counters follow. Round trips: reads the survey and the version (one BatchGetItem) and
 * the version published now (one GetItem, when another), then one transaction.
 */
import { getMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { ConflictError } from '../../platform/errors.ts';
import { fullCopy } from '../collecting-state.ts';
import { surveyEntity, surveyVersionEntity } from '../entities.ts';
import { surveyArchived, surveyNotFound, versionNotFound } from '../errors.ts';
import { toSurvey, toVersion } from '../record.ts';
import type { Survey, SurveyVersion } from '../schemas.ts';
import { copyWrites } from './collecting-copies.ts';
import { counterMove } from './status-counts.ts';
import { findVersion } from './versions.ts';

export interface PublishPlan {
  survey: Survey;
  surveyItem: Record<string, unknown>;
  version: SurveyVersion;
  /** The version published now, when another one. */
  published: SurveyVersion | null;
}

/** Everything publish decides on: the survey, the version, and the version now published. */
export async function readForPublish(workspace: string, surveyId: string, versionId: string): Promise<PublishPlan> {
  const [surveyItem, versionItem] = await getMany([
    surveyEntity.keys.survey(workspace, surveyId),
    surveyVersionEntity.keys.version(workspace, surveyId, versionId),
  ]);
  if (!surveyItem) throw surveyNotFound();
  const survey = toSurvey(surveyItem);
  if (survey.status === 'archived') throw surveyArchived();
  if (!versionItem) throw versionNotFound();
  const version = toVersion(versionItem);
  let published: SurveyVersion | null = null;
  if (survey.publishedVersionId && survey.publishedVersionId !== versionId) {
    published = await findVersion(workspace, surveyId, survey.publishedVersionId);
  }
  return { survey, surveyItem, version, published };
}

/**
 * Publishes (or republishes) a version in one transaction, conditional on the survey and the
 * version being as read: the version becomes published, the one published before superseded, the
 * survey published, and the counters and the survey's collecting copies follow.
 */
export async function publishVersion(workspace: string, plan: PublishPlan): Promise<{ survey: Survey; version: SurveyVersion }> {
  const { survey, version, published } = plan;
  const now = new Date().toISOString();
  const surveyChange = update()
    .set('status', 'published')
    .set('publishedVersionId', version.id)
    .set('publishedAt', now)
    .set('updatedAt', now)
    .increment('version')
    .set(['versions', version.id, 'status'], 'published')
    .set(['versions', version.id, 'publishedAt'], now);
  if (published) surveyChange.set(['versions', published.id, 'status'], 'superseded');
  try {
    await transact({
      survey: {
        Update: {
          TableName: tableName,
          Key: surveyEntity.keys.survey(workspace, survey.id),
          ...surveyChange.build({ expression: '#version = :read', names: { '#version': 'version' }, values: { ':read': survey.version } }),
        },
      },
      version: {
        Update: {
          TableName: tableName,
          Key: surveyVersionEntity.keys.version(workspace, survey.id, version.id),
          ...update()
            .set('status', 'published')
            .set('publishedAt', now)
            .build({
              expression: 'revision = :revision AND #status = :was',
              names: { '#status': 'status' },
              values: { ':revision': version.revision, ':was': version.status },
            }),
        },
      },
      superseded: published && {
        Update: {
          TableName: tableName,
          Key: surveyVersionEntity.keys.version(workspace, survey.id, published.id),
          ...update()
            .set('status', 'superseded')
            .build({ expression: '#status = :published', names: { '#status': 'status' }, values: { ':published': 'published' } }),
        },
      },
      counter: counterMove(workspace, survey.status, 'published'),
      // What a submit checks: the survey collects this version under these rules (collecting-copies.ts).
      ...copyWrites(workspace, survey.id, fullCopy({ ...survey, status: 'published', publishedVersionId: version.id })),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError) {
      throw new ConflictError('version_conflict', 'The survey or the version changed while publishing; read them again and retry');
    }
    throw error;
  }
  return {
    survey: {
      ...survey,
      status: 'published',
      publishedVersionId: version.id,
      publishedAt: now,
      updatedAt: now,
      version: survey.version + 1,
    },
    version: { ...version, status: 'published', publishedAt: now },
  };
}
