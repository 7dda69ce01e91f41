/** Published → closed (stops collecting); anything else is refused (state-rules.ts). */
import type { Survey } from '../schemas.ts';
import { closeRefusal } from '../state-rules.ts';
import { getSurveyForStatusChange, writeClose } from '../store/surveys.ts';

export async function closeSurvey(workspace: string, id: string): Promise<Survey> {
  const { survey } = await getSurveyForStatusChange(workspace, id);
  const refused = closeRefusal(survey);
  if (refused) throw refused;
  return writeClose(workspace, survey);
}
