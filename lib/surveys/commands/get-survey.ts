/** The survey, its version summaries and the workspace's designs, in one BatchGetItem; 404 when there is none. */
import { surveyNotFound } from '../errors.ts';
import { findSurvey, type SurveyWithVersions } from '../store/surveys.ts';

export async function getSurvey(workspace: string, id: string): Promise<SurveyWithVersions> {
  const found = await findSurvey(workspace, id);
  if (!found) throw surveyNotFound();
  return found;
}
