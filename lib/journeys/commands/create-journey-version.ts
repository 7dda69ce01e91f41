/**
 * POST versions: a new draft copied from any version of the journey (content and diagnostics as
 * they are), counted on the journey, in one transaction after one read of both. A replay (the
 * chain's, or the store's own when a retry raced the first request) reads the version as it is now.
 */
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { journeyArchived, journeyNotFound, versionNotFound } from '../errors.ts';
import { newJourneyId, pairsFromAttribute, toVersion, type VersionMetadata } from '../record.ts';
import type { JourneyVersion } from '../schemas.ts';
import { insertBranch } from '../store/drafts.ts';
import { readJourneyAndVersion } from '../store/items.ts';
import { getVersion, newVersionItem } from '../store/versions.ts';

export async function createJourneyVersion(
  workspace: string,
  journeyId: string,
  { fromVersionId, label }: { fromVersionId: string; label?: string | undefined },
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ version: JourneyVersion; replayed: boolean }> {
  const { journey, version: source } = await readJourneyAndVersion(workspace, journeyId, fromVersionId, true);
  if (!journey) throw journeyNotFound();
  if (!source) throw versionNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();

  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const metadata: VersionMetadata = {
    id: newJourneyId(nowMs),
    journeyId,
    label: label ?? `Draft ${Number(journey.versionCount) + 1}`,
    parentVersionId: fromVersionId,
    createdBy: keyId,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    revision: 1,
    sourceRevision: Number(source.revision),
    legacyOrigin: null,
  };
  const item = newVersionItem(workspace, metadata, {
    content: source.content as Uint8Array,
    contentBytes: Number(source.contentBytes),
    diagnostics: source.diagnostics as Uint8Array,
    diagnosticsBytes: Number(source.diagnosticsBytes ?? 0),
    pairs: pairsFromAttribute(source.pairs),
  });
  // A branch draws its metrics as its source does until its first save resolves them afresh.
  if (typeof source.bindings === 'string') item.bindings = source.bindings;
  const { response, replayed } = await insertBranch(workspace, journeyId, item, now, idempotency);
  if (replayed) return { version: await getVersion(workspace, journeyId, response.versionId), replayed };
  return { version: toVersion(item), replayed };
}

/** The answer to a replay of the chain: the version the first request created, as it is now (404 once deleted). */
export function replayedVersion(workspace: string, journeyId: string, remembered: unknown): Promise<JourneyVersion> {
  return getVersion(workspace, journeyId, (remembered as { versionId: string }).versionId);
}
