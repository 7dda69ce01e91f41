/**
 * Writes and checks of a version's content: the store reads what the rules need (the journey, the
 * version, the facts of its references), the pure diagnostics (diagnostics.ts) decide, and the
 * store writes once. No rule runs inside the store between its read and its transaction.
 * Round trips (besides auth): 1 read + one per further level of paired journeys, then the write.
 */
import type { VersionPrecondition } from '../platform/data/conditions.ts';
import { ContentTooLargeError } from '../platform/errors.ts';
import { CONTENT_LIMITS, decodeJson, encodeContent } from './codec.ts';
import type { JourneyContent } from './content.ts';
import { type Diagnostic, diagnoseContent, pairTargetsOf } from './diagnostics.ts';
import { journeyArchived, journeyNotFound, versionNotFound } from './errors.ts';
import { followedBindingsOf, largestBindingsAttribute, resolvedBindingsOf } from './metric-bindings.ts';
import { pairsFromAttribute, storedDiagnostics, toJourney, toVersion, toVersionMetadata } from './record.ts';
import type { Journey, JourneyVersion } from './schemas.ts';
import { assertRevision, assertWritable } from './state-rules.ts';
import { writeContent } from './store/drafts.ts';
import { readJourneyAndVersion } from './store/items.ts';
import { publishedMetricSurveysOf } from './store/metric-follows.ts';
import { writePublication } from './store/publishing.ts';
import { loadReferenceFacts, readForSave } from './store/references.ts';
import { largestVersionItemBytes } from './store/versions.ts';

/**
 * The content encoded, or the 413 it answers when it does not fit a version: more than 1 MB of JSON,
 * or a version item (the compressed content, its distinct pair targets, room for diagnostics and
 * metric bindings, the metadata at their longest) past DynamoDB's item limit, which DynamoDB itself
 * would refuse with a ValidationException (a 502). Checked before anything is read.
 */
function encodeOrThrow(content: JourneyContent) {
  const encoded = encodeContent(content);
  if (!encoded.ok && encoded.limit === 'rawBytes')
    throw new ContentTooLargeError(`content is ${encoded.bytes} bytes of JSON; at most ${CONTENT_LIMITS.rawBytes} are accepted`);
  const pairs = pairTargetsOf(content);
  const itemBytes = encoded.ok
    ? largestVersionItemBytes({
        content: encoded.compressed,
        contentBytes: encoded.rawBytes,
        pairs,
        bindings: largestBindingsAttribute(content),
      })
    : encoded.bytes;
  if (!encoded.ok || itemBytes > CONTENT_LIMITS.itemBytes) {
    const compressed = encoded.ok ? encoded.compressed.byteLength : encoded.bytes;
    throw new ContentTooLargeError(
      `content does not fit one version: it compresses to ${compressed} bytes, and with its ${new Set(pairs.map((p) => `${p.journeyId}/${p.versionId}`)).size} ` +
        `distinct micro-journey pairs, room for diagnostics and the version's other attributes the version would take ${itemBytes} bytes; ` +
        `DynamoDB holds at most ${CONTENT_LIMITS.itemBytes} in one item`,
    );
  }
  return { encoded, pairs };
}

/**
 * PUT content: 413 when it does not fit, then one BatchGetItem for the journey, the version and the
 * first level of references (further levels as needed), fresh diagnostics, and one transaction.
 */
export async function saveContent(
  workspace: string,
  journeyId: string,
  versionId: string,
  content: JourneyContent,
  precondition: VersionPrecondition,
): Promise<JourneyVersion> {
  const { encoded, pairs } = encodeOrThrow(content);
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

/** POST /journeys/validate: the diagnostics content would get, with its references read; nothing is written. */
export async function validateContent(workspace: string, content: JourneyContent): Promise<Diagnostic[]> {
  encodeOrThrow(content);
  const { facts } = await loadReferenceFacts(workspace, content);
  return storedDiagnostics(diagnoseContent(content, facts, null)).kept;
}

export type PublishOutcome = { ok: true; version: JourneyVersion; journey: Journey } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Publish: one read of the journey and the whole version, the reference levels, fresh diagnostics
 * (errors refuse it), then one transaction (store/publishing.ts). Publishing a published version
 * changes nothing.
 */
export async function publishVersion(
  workspace: string,
  journeyId: string,
  versionId: string,
  precondition: VersionPrecondition,
): Promise<PublishOutcome> {
  const { journey, version } = await readJourneyAndVersion(workspace, journeyId, versionId, true);
  if (!journey) throw journeyNotFound();
  if (!version) throw versionNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();
  if (typeof version.publishedAt === 'string') return { ok: true, version: toVersion(version), journey: toJourney(journey) };
  const read = Number(version.revision);
  assertRevision(precondition, read, true);

  const content = decodeJson(version.content as Uint8Array) as JourneyContent;
  const { facts } = await loadReferenceFacts(workspace, content);
  const fresh = diagnoseContent(content, facts, journeyId);
  if (fresh.some((diagnostic) => diagnostic.severity === 'error')) return { ok: false, diagnostics: storedDiagnostics(fresh).kept };

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
    ok: true,
    version: { ...toVersionMetadata(version), publishedAt: now, updatedAt: now, content, diagnostics: diagnostics.kept },
    journey: { ...toJourney(journey), publishedVersionId: versionId, updatedAt: now, version: Number(journey.version) + 1 },
  };
}
