/**
 * Publish: one read of the journey and the whole version, the reference levels, fresh diagnostics
 * (errors refuse it: 400 `invalid_content`), then one transaction (store/publishing.ts). Publishing
 * a published version changes nothing.
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { decodeJson } from '../codec.ts';
import type { JourneyContent } from '../content.ts';
import { diagnoseContent, pairTargetsOf } from '../diagnostics.ts';
import { invalidContent, journeyArchived, journeyNotFound, versionNotFound } from '../errors.ts';
import { followedBindingsOf, resolvedBindingsOf } from '../metric-bindings.ts';
import { pairsFromAttribute, storedDiagnostics, toJourney, toVersion, toVersionMetadata } from '../record.ts';
import type { Journey, JourneyVersion } from '../schemas.ts';
import { assertRevision } from '../state-rules.ts';
import { readJourneyAndVersion } from '../store/items.ts';
import { publishedMetricSurveysOf } from '../store/metric-follows.ts';
import { writePublication } from '../store/publishing.ts';
import { loadReferenceFacts } from '../store/references.ts';

export async function publishJourneyVersion(
  workspace: string,
  journeyId: string,
  versionId: string,
  precondition: VersionPrecondition,
): Promise<{ version: JourneyVersion; journey: Journey }> {
  const { journey, version } = await readJourneyAndVersion(workspace, journeyId, versionId, true);
  if (!journey) throw journeyNotFound();
  if (!version) throw versionNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();
  if (typeof version.publishedAt === 'string') return { version: toVersion(version), journey: toJourney(journey) };
  const read = Number(version.revision);
  assertRevision(precondition, read, true);

  const content = decodeJson(version.content as Uint8Array) as JourneyContent;
  const { facts } = await loadReferenceFacts(workspace, content);
  const fresh = diagnoseContent(content, facts, journeyId);
  if (fresh.some((diagnostic) => diagnostic.severity === 'error')) throw invalidContent(storedDiagnostics(fresh).kept);

  const diagnostics = storedDiagnostics(fresh);
  const now = new Date().toISOString();
  await writePublication(workspace, journeyId, versionId, {
    read,
    diagnostics,
    pairs: pairTargetsOf(content),
    previousPairs: pairsFromAttribute(journey.publishedPairs),
    bindings: resolvedBindingsOf(content, facts.surveys ?? new Map()),
    followed: followedBindingsOf(content),
    previouslyFollowed: new Set(publishedMetricSurveysOf(journey)),
    now,
  });
  return {
    version: { ...toVersionMetadata(version), publishedAt: now, updatedAt: now, content, diagnostics: diagnostics.kept },
    journey: { ...toJourney(journey), publishedVersionId: versionId, updatedAt: now, version: Number(journey.version) + 1 },
  };
}
