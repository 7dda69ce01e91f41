/** POST /journeys: a macro journey and its first draft, in one transaction; safe to retry with an Idempotency-Key. */
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { encodeContent } from '../codec.ts';
import { emptyJourneyContent } from '../content.ts';
import { newJourneyId, storedDiagnostics, type VersionMetadata } from '../record.ts';
import type { JourneyVersion, MicroJourneyCreation } from '../schemas.ts';
import { insertJourney, type JourneyCreation } from '../store/journeys.ts';

type Titles = Pick<MicroJourneyCreation, 'title' | 'titleEn' | 'titleAr'>;
export type CreatedJourney = { journeyId: string; version: JourneyVersion };

export function createJourney(workspace: string, body: Titles, keyId: string, idempotency: IdempotentRequest | undefined) {
  return newJourney(workspace, { kind: 'macro', ...titlesOf(body), parentJourneyId: null, stageId: null }, keyId, idempotency);
}

/** `title` is an alias of `titleEn`; a title not given is none. */
export function titlesOf(body: Titles) {
  return { titleEn: body.titleEn ?? body.title ?? null, titleAr: body.titleAr ?? null };
}

/** A journey of either kind with its first draft (`Draft 1`, empty content): the draft is answered whole, and remembered under an Idempotency-Key. */
export function newJourney(
  workspace: string,
  creation: JourneyCreation,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: CreatedJourney; replayed: boolean }> {
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const journeyId = newJourneyId(nowMs);
  const content = emptyJourneyContent();
  const encoded = encodeContent(content);
  if (!encoded.ok) throw new Error('empty content must encode');
  const diagnostics = storedDiagnostics([]);
  const metadata: VersionMetadata = {
    id: newJourneyId(nowMs),
    journeyId,
    label: 'Draft 1',
    parentVersionId: null,
    createdBy: keyId,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    revision: 1,
    sourceRevision: null,
    legacyOrigin: null,
  };
  const parts = {
    content: encoded.compressed,
    contentBytes: encoded.rawBytes,
    diagnostics: diagnostics.bytes,
    diagnosticsBytes: diagnostics.rawBytes,
    pairs: [],
  };
  const response = { journeyId, version: { ...metadata, content, diagnostics: diagnostics.kept } };
  return insertJourney(workspace, creation, { metadata, parts }, response, idempotency);
}
