/**
 * PUT content: 413 when it does not fit, then one BatchGetItem for the journey, the version and the
 * first level of references (further levels as needed), fresh diagnostics (diagnostics.ts), and one
 * transaction on condition that nothing changed since the read.
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import type { JourneyContent } from '../content.ts';
import { encodeToFit } from '../content-size.ts';
import { diagnoseContent } from '../diagnostics.ts';
import { resolvedBindingsOf } from '../metric-bindings.ts';
import { storedDiagnostics, toVersionMetadata } from '../record.ts';
import type { JourneyVersion } from '../schemas.ts';
import { assertRevision, assertWritable } from '../state-rules.ts';
import { writeContent } from '../store/drafts.ts';
import { readForSave } from '../store/references.ts';

export async function saveJourneyVersionContent(
  workspace: string,
  journeyId: string,
  versionId: string,
  content: JourneyContent,
  precondition: VersionPrecondition,
): Promise<JourneyVersion> {
  const { encoded, pairs } = encodeToFit(content);
  const { journey, version, facts } = await readForSave(workspace, journeyId, versionId, content);
  assertWritable(journey, version);
  const read = Number(version.revision);
  assertRevision(precondition, read, true);
  const diagnostics = storedDiagnostics(diagnoseContent(content, facts, journeyId));
  const now = new Date().toISOString();
  const bindings = resolvedBindingsOf(content, facts.surveys ?? new Map());
  await writeContent(workspace, journeyId, versionId, { encoded, diagnostics, pairs, bindings, read, now });
  return { ...toVersionMetadata(version), revision: read + 1, updatedAt: now, content, diagnostics: diagnostics.kept };
}
