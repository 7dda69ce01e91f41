/**
 * Survey items <-> API records. A version's definition and its issues are stored together as one
 * compressed JSON document in a Binary attribute: definitions are repetitive JSON that shrinks
 * several times over, and DynamoDB items stop at 400 KB. New items use the platform's brotli
 * store (lib/platform/data/compressed-json.ts) and say so in `contentEncoding`; items written
 * before it are raw deflate, carry no `contentEncoding`, and keep loading.
 */
import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { compressJson, decompressJson } from '../platform/data/compressed-json.ts';
import { uuidv7 } from '../platform/ids.ts';
import type { SurveyDefinition } from './engine/definition.ts';
import type { Survey, SurveyDesign, SurveyVersion, VersionSummary } from './schemas.ts';

/** What one version item may hold compressed (the rest of the item stays well under 400 KB). */
const STORED_CONTENT_MAX_BYTES = 350 * 1024;

/** UUIDv7: time-ordered, so survey keys sort by creation and a descending Query lists newest first. */
export const newSurveyId = uuidv7;

/**
 * The default design's id is derived from the workspace (a name-based UUID, version 8), so every
 * first survey of a workspace, even two made at once, makes the same single default design.
 */
function defaultDesignId(workspace: string): string {
  const bytes = createHash('sha256').update(`survey-default-design:${workspace}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  return uuidText(Buffer.from(bytes));
}

function uuidText(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Each design is one top-level attribute of the workspace's designs item: `design_<id without dashes>`. */
export function designAttribute(designId: string): string {
  return `design_${designId.replaceAll('-', '')}`;
}

export interface StoredDesign {
  id: string;
  name: string;
  primaryColor: string;
  backgroundColor?: string;
  logoUrl?: string;
  font?: string;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

export function defaultDesign(workspace: string, now: string): StoredDesign {
  return {
    id: defaultDesignId(workspace),
    name: 'Default',
    primaryColor: '#1F6FEB',
    backgroundColor: '#FFFFFF',
    isDefault: true,
    createdAt: now,
    updatedAt: now,
  };
}

export function toDesign(stored: StoredDesign): SurveyDesign {
  return {
    id: stored.id,
    name: stored.name,
    primaryColor: stored.primaryColor,
    backgroundColor: stored.backgroundColor ?? null,
    logoUrl: stored.logoUrl ?? null,
    font: stored.font ?? null,
    isDefault: stored.isDefault,
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}

/** Every design of a designs item, default first, then by creation. */
export function designsOf(item: Record<string, unknown> | undefined): SurveyDesign[] {
  if (!item) return [];
  return Object.entries(item)
    .filter(([name]) => name.startsWith('design_'))
    .map(([, value]) => toDesign(value as StoredDesign))
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** Survey attributes the API returns (the version summaries are read separately). */
export const SURVEY_RECORD_ATTRIBUTES = [
  'id',
  'name',
  'nameAr',
  'language',
  'version',
  'status',
  'themeLogoUrl',
  'themePrimaryColor',
  'designId',
  'targetingRules',
  'publishedVersionId',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'archivedAt',
] as const;

export function toSurvey(item: Record<string, unknown>): Survey {
  return {
    id: item.id as string,
    name: item.name as string,
    nameAr: (item.nameAr as string | undefined) ?? null,
    language: item.language as Survey['language'],
    version: item.version as number,
    status: item.status as Survey['status'],
    themeLogoUrl: (item.themeLogoUrl as string | undefined) ?? null,
    themePrimaryColor: (item.themePrimaryColor as string | undefined) ?? null,
    designId: (item.designId as string | undefined) ?? null,
    // A JSON string, not a map: conditions nest, and any shape stores as given.
    targetingRules: typeof item.targetingRules === 'string' ? JSON.parse(item.targetingRules) : null,
    publishedVersionId: (item.publishedVersionId as string | undefined) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    publishedAt: (item.publishedAt as string | undefined) ?? null,
    archivedAt: (item.archivedAt as string | undefined) ?? null,
  };
}

export interface StoredSummary {
  id: string;
  number: number;
  status: VersionSummary['status'];
  basedOnVersionId?: string;
  createdBy: string;
  createdAt: string;
  publishedAt?: string;
}

/** The survey's versions, newest first. */
export function summariesOf(item: Record<string, unknown>): VersionSummary[] {
  const versions = (item.versions ?? {}) as Record<string, StoredSummary>;
  return Object.values(versions)
    .map((summary) => ({
      id: summary.id,
      surveyId: item.id as string,
      number: summary.number,
      status: summary.status,
      basedOnVersionId: summary.basedOnVersionId ?? null,
      createdBy: summary.createdBy,
      createdAt: summary.createdAt,
      publishedAt: summary.publishedAt ?? null,
    }))
    .sort((a, b) => b.number - a.number);
}

export interface VersionContent {
  definition: SurveyDefinition;
  issues: SurveyVersion['issues'];
}

/** The `contentEncoding` of content written through compressed-json.ts. */
const CONTENT_ENCODING = 'br';

/**
 * No definition can reach a handler larger than a Lambda request (6 MB), so this cap never refuses
 * what a client could send; it bounds inflating a corrupt item.
 */
const CONTENT_MAX_RAW_BYTES = 6 * 1024 * 1024;

/** A version's content as stored: the compressed bytes and their encoding. */
export interface StoredContent {
  content: Uint8Array;
  contentEncoding: typeof CONTENT_ENCODING;
}

/** The content compressed for a version item, or null when even compressed it would not fit one. */
export function compressContent(content: VersionContent): StoredContent | null {
  const encoded = compressJson(JSON.stringify(content), CONTENT_MAX_RAW_BYTES, STORED_CONTENT_MAX_BYTES);
  return encoded.ok ? { content: encoded.compressed, contentEncoding: CONTENT_ENCODING } : null;
}

/** A version item's content, whichever format it was written in. */
function decompressContent(item: Record<string, unknown>): VersionContent {
  const stored = item.content as Uint8Array;
  if (item.contentEncoding === CONTENT_ENCODING) return decompressJson(stored, CONTENT_MAX_RAW_BYTES) as VersionContent;
  return JSON.parse(inflateRawSync(stored, { maxOutputLength: CONTENT_MAX_RAW_BYTES }).toString('utf8')) as VersionContent;
}

/** The stored content of a version item, to copy into a new version as it is. */
export function storedContentOf(item: Record<string, unknown>): { content: Uint8Array; contentEncoding?: string } {
  return { content: item.content as Uint8Array, contentEncoding: item.contentEncoding as string | undefined };
}

export function toVersion(item: Record<string, unknown>): SurveyVersion {
  const content = decompressContent(item);
  return {
    id: item.id as string,
    surveyId: item.surveyId as string,
    number: item.number as number,
    status: item.status as SurveyVersion['status'],
    basedOnVersionId: (item.basedOnVersionId as string | undefined) ?? null,
    revision: item.revision as number,
    definition: content.definition,
    issues: content.issues,
    createdBy: item.createdBy as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    publishedAt: (item.publishedAt as string | undefined) ?? null,
  };
}
