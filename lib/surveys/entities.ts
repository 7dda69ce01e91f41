/**
 * The items of surveys (lib/platform/data/entity.ts), under the workspace's partition. Survey ids are
 * UUIDv7, so `SURVEY#<id>` sorts by creation and a descending Query lists newest first; the per-status
 * counter `SURVEY$COUNT` sorts just after every survey ('$' > '#'), so that same Query returns the
 * totals first. The range SURVEY# … SURVEY$COUNT holds only surveys and the counter: versions, designs
 * and the audience catalog start `SURVEY` followed by a letter, which sorts after '$'. A survey's
 * responses, exports and summaries are declared in their sub-areas (responses/, exports/, summary/).
 */
import { defineEntity } from '../platform/data/entity.ts';
import { workspacePk } from '../platform/data/keys.ts';
import { surveyExportEntity } from './exports/entities.ts';
import { respondentEntity, responseCounterEntity, responseTombstoneEntity, surveyResponseEntity } from './responses/entities.ts';
import { countedMarkerEntity, dayBucketEntity } from './summary/entities.ts';

export const surveyEntity = defineEntity({
  name: 'Survey',
  keys: {
    survey: (workspace: string, id: string) => ({ pk: workspacePk(workspace), sk: `SURVEY#${id}` }),
    /** The descending range of a workspace's surveys, their counter first. */
    list: { from: 'SURVEY#', to: 'SURVEY$COUNT' },
  },
});

export const surveyCounterEntity = defineEntity({
  name: 'SurveyCounter',
  keys: { counter: (workspace: string) => ({ pk: workspacePk(workspace), sk: 'SURVEY$COUNT' }) },
});

export const surveyVersionEntity = defineEntity({
  name: 'SurveyVersion',
  keys: {
    version: (workspace: string, surveyId: string, versionId: string) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYVERSION#${surveyId}#${versionId}`,
    }),
  },
});

// One item each per workspace: every survey design (one attribute per design) and the audience catalog.
export const surveyDesignsEntity = defineEntity({
  name: 'SurveyDesigns',
  keys: { designs: (workspace: string) => ({ pk: workspacePk(workspace), sk: 'SURVEYDESIGNS' }) },
});

export const surveyAudienceEntity = defineEntity({
  name: 'SurveyAudience',
  keys: { audience: (workspace: string) => ({ pk: workspacePk(workspace), sk: 'SURVEYAUDIENCE' }) },
});

/**
 * Copies of a survey's collecting state, each checked by the submits and continuations whose response
 * hashes to it: a check is billed as a transactional write of the item (2 units), so the partial →
 * continue → finish flow (3 checks) at 2,000 a second is 12,000 units: 32 copies take 375 each, and
 * 5,000 submits 312.
 */
export const SURVEY_COLLECTING_COPIES = 32;

/** `SURVEYSTATE#<survey>#<nn>`: the copies a submit checks instead of the survey item (written with every change of that state). */
export const collectingStateEntity = defineEntity({
  name: 'SurveyCollectingState',
  keys: {
    copy: (workspace: string, surveyId: string, copy: number) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYSTATE#${surveyId}#${String(copy).padStart(2, '0')}`,
    }),
  },
});

/** Every survey item, its sub-areas' too (lib/entities.ts collects them). */
export const SURVEY_ENTITIES = [
  surveyEntity,
  surveyCounterEntity,
  surveyVersionEntity,
  surveyDesignsEntity,
  surveyAudienceEntity,
  collectingStateEntity,
  surveyResponseEntity,
  responseCounterEntity,
  responseTombstoneEntity,
  respondentEntity,
  surveyExportEntity,
  dayBucketEntity,
  countedMarkerEntity,
] as const;
