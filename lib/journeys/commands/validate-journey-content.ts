/** POST /journeys/validate: the diagnostics content would get, with its references read; nothing is written. */

import type { JourneyContent } from '../content.ts';
import { encodeToFit } from '../content-size.ts';
import { type Diagnostic, diagnoseContent } from '../diagnostics.ts';
import { storedDiagnostics } from '../record.ts';
import { loadReferenceFacts } from '../store/references.ts';

export async function validateJourneyContent(workspace: string, content: JourneyContent): Promise<Diagnostic[]> {
  encodeToFit(content);
  const { facts } = await loadReferenceFacts(workspace, content);
  return storedDiagnostics(diagnoseContent(content, facts, null)).kept;
}
