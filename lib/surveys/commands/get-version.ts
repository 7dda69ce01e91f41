/** One version with its definition and issues (GetItem); 404 when there is none. */
import { versionNotFound } from '../errors.ts';
import type { SurveyVersion } from '../schemas.ts';
import { findVersion } from '../store/versions.ts';

export async function getVersion(workspace: string, surveyId: string, versionId: string): Promise<SurveyVersion> {
  const version = await findVersion(workspace, surveyId, versionId);
  if (!version) throw versionNotFound();
  return version;
}
