/**
 * Journey and version items <-> API records. Content and diagnostics are stored compressed
 * (codec.ts) in Binary attributes; the distinct pair targets of a version are also kept uncompressed
 * (`pairs`, a JSON string) so the reference loader can read them with a projection, without the content.
 */
import { compressJson } from '../platform/data/compressed-json.ts';
import { uuidv7 } from '../platform/ids.ts';
import { decodeJson } from './codec.ts';
import type { JourneyContent } from './content.ts';
import type { PairTarget } from './cycles.ts';
import { capDiagnostics, type Diagnostic } from './diagnostics.ts';
import type { Journey, JourneyVersion } from './schemas.ts';

/** Stored diagnostics are capped, so the item and every response stay bounded (errors are kept first). */
const MAX_STORED_DIAGNOSTICS = 500;
export const DIAGNOSTICS_LIMITS = { raw: 1_048_576, compressed: 40 * 1024 } as const;

/** UUIDv7: time-ordered, so sort keys built from ids sort by creation. */
export const newJourneyId = uuidv7;

/**
 * Each hex digit d becomes 15-d: the complement of a UUIDv7 sorts newest first in ascending
 * order, and it is computed from the id alone, so a version is still one GetItem away.
 */
export function descendingIdKey(id: string): string {
  return id.toLowerCase().replace(/[0-9a-f]/g, (digit) => (15 - Number.parseInt(digit, 16)).toString(16));
}

type Item = Record<string, unknown>;

const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

export function toJourney(item: Item): Journey {
  return {
    id: item.id as string,
    kind: item.kind as Journey['kind'],
    titleEn: stringOrNull(item.titleEn),
    titleAr: stringOrNull(item.titleAr),
    parentJourneyId: stringOrNull(item.parentJourneyId),
    stageId: stringOrNull(item.stageId),
    publishedVersionId: stringOrNull(item.publishedVersionId),
    versionCount: Number(item.versionCount),
    version: Number(item.version),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    archivedAt: stringOrNull(item.archivedAt),
  };
}

/** The attributes of a version item other than `content` and `diagnostics`. */
export type VersionMetadata = Omit<JourneyVersion, 'content' | 'diagnostics'>;

export function toVersionMetadata(item: Item): VersionMetadata {
  return {
    id: item.id as string,
    journeyId: item.journeyId as string,
    label: item.label as string,
    parentVersionId: stringOrNull(item.parentVersionId),
    createdBy: item.createdBy as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    publishedAt: stringOrNull(item.publishedAt),
    revision: Number(item.revision),
    sourceRevision: typeof item.sourceRevision === 'number' ? item.sourceRevision : null,
    legacyOrigin: stringOrNull(item.legacyOrigin),
  };
}

export function toVersion(item: Item): JourneyVersion {
  return {
    ...toVersionMetadata(item),
    content: decodeJson(item.content as Uint8Array) as JourneyContent,
    diagnostics: decodeJson(item.diagnostics as Uint8Array, DIAGNOSTICS_LIMITS.raw) as Diagnostic[],
  };
}

/** Capped and compressed diagnostics, ready for the item (and the capped list the response shows). */
export function storedDiagnostics(diagnostics: readonly Diagnostic[]): { kept: Diagnostic[]; bytes: Uint8Array; rawBytes: number } {
  const kept = capDiagnostics(diagnostics, MAX_STORED_DIAGNOSTICS);
  const encoded = compressJson(JSON.stringify(kept), DIAGNOSTICS_LIMITS.raw, DIAGNOSTICS_LIMITS.compressed);
  // 500 diagnostics of bounded messages are far below both limits; failing here is a bug, not input.
  if (!encoded.ok) throw new Error(`diagnostics do not fit: ${encoded.limit} ${encoded.bytes}`);
  return { kept, bytes: encoded.compressed, rawBytes: encoded.rawBytes };
}

/**
 * The pair targets as stored (a version's `pairs`, a journey's `publishedPairs`): each distinct target
 * once, in first-seen order. Whoever reads them walks targets (references.ts, cycles.ts), so a micro
 * journey paired in many stages takes its bytes once, not once per stage.
 */
export function pairsAttribute(pairs: readonly PairTarget[]): string {
  const distinct = new Map<string, PairTarget>();
  for (const pair of pairs) {
    const key = `${pair.journeyId}/${pair.versionId ?? ''}`;
    if (!distinct.has(key)) distinct.set(key, pair);
  }
  return JSON.stringify([...distinct.values()]);
}

export function pairsFromAttribute(value: unknown): PairTarget[] {
  return typeof value === 'string' ? (JSON.parse(value) as PairTarget[]) : [];
}

/** Bytes a version adds to a list response, before serialising it (for the 5 MB page cut). */
export function estimatedResponseBytes(item: Item): number {
  const diagnosticsBytes = (item.diagnosticsBytes as number | undefined) ?? 0;
  return Number(item.contentBytes ?? 0) + diagnosticsBytes + 1024;
}
