/**
 * The `entity` of a response item, apart from record.ts so the webhook fan-out (lib/surveys/stream.ts)
 * can recognise one without bundling the record mapping, the keyed hash and their imports.
 */
export const RESPONSE_ENTITY = 'SurveyResponse';
