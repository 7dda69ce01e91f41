/**
 * The items of survey responses (lib/platform/data/entity.ts), apart from record.ts so the stream
 * readers (lib/surveys/stream.ts) can recognise one without bundling the record mapping, the keyed
 * hash and their imports.
 */
import { defineEntity } from '../../platform/data/entity.ts';
import { keys } from '../../platform/data/keys.ts';

export const surveyResponseEntity = defineEntity({
  name: 'SurveyResponse',
  keys: { response: keys.surveyResponse },
});
