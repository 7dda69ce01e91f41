/** The items of survey exports (lib/platform/data/entity.ts): one record per export job, expiring with its file (TTL 24 h). */
import { defineEntity } from '../../platform/data/entity.ts';
import { workspacePk } from '../../platform/data/keys.ts';

export const surveyExportEntity = defineEntity({
  name: 'SurveyExport',
  keys: {
    export: (workspace: string, surveyId: string, exportId: string) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYEXPORT#${surveyId}#${exportId}`,
    }),
  },
});
