/**
 * `cxctl workspace export <slug> --out file`: every record of one workspace as NDJSON, the format
 * docs/operating.md ("Workspace export format") documents for the customer who receives it.
 *
 *   line 1     {"format":"cx-portal-workspace-export","version":1,"workspace":…,"exportedAt":…}
 *   then       {"type":"<record type>","data":{…}}          one line per record, in the table's order
 *   last line  {"type":"end","records":N,"byType":{…},"leftOut":{…}}
 *
 * Every item of the workspace's partition is accounted for: exported as a record, or counted in
 * `leftOut` as derived (counters, indexes, slug claims, summaries: rebuilt from the records) or
 * transient (replay records of creates, export jobs: gone within a day). An item of a kind this
 * module does not know stops the export, so a new kind of data can never be dropped silently.
 * Secrets and keyed hashes are never written: a key's secret hash, a webhook's secret, the keyed
 * hashes people are found by. What people submitted is written as stored (an idea's submitter, a
 * response's respondent identifiers): it is the customer's data. Compressed documents (journey and
 * survey versions, article content) are written as the JSON they hold.
 *
 * The file is written beside its destination and renamed into place when complete, so a failed
 * export leaves no file that looks whole.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { brotliDecompressSync, inflateRawSync } from 'node:zlib';
import { AdminError, type TableClient } from './table-client.ts';
import { type Item, workspacePartition } from './table-io.ts';
import { findWorkspace } from './workspaces.ts';

const EXPORT_FORMAT = { format: 'cx-portal-workspace-export', version: 1 } as const;

type LeftOut = 'derived' | 'transient';
type Rule = { type: string; omit?: readonly string[] } | { leftOut: LeftOut; what: string };

/** Attributes of the table's own bookkeeping, on every item: keys, index keys, locks, expiry. */
const BOOKKEEPING = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'entity', 'lock', 'ttl', 'workspace'];

/** Every kind of item a workspace holds (its `entity`), and what the export does with it. */
export const EXPORT_RULES: Readonly<Record<string, Rule>> = {
  Workspace: { type: 'workspace' },
  DeveloperKey: { type: 'developerKey', omit: ['secretHash', 'tokenHint', 'rlWindow', 'rlCount', 'rlWindows'] },
  DirectoryPerson: { type: 'directoryPerson' },
  DirectoryTeam: { type: 'directoryTeam' },
  Idea: { type: 'idea', omit: ['submitterHash'] },
  Sop: { type: 'sop' },
  SopComment: { type: 'sopComment' },
  Webhook: { type: 'webhook', omit: ['secret', 'secretPrefix'] },
  WebhookDelivery: { type: 'webhookDelivery', omit: ['leaseToken', 'leaseUntil'] },
  Journey: { type: 'journey' },
  JourneyVersion: { type: 'journeyVersion' },
  KbCategory: { type: 'knowledgeBankCategory' },
  KbArticle: { type: 'knowledgeBankArticle' },
  KbContent: { type: 'knowledgeBankContent' },
  KbLinks: { type: 'knowledgeBankLinks' },
  Survey: { type: 'survey' },
  SurveyVersion: { type: 'surveyVersion', omit: ['contentEncoding'] },
  SurveyDesigns: { type: 'surveyDesigns' },
  SurveyAudience: { type: 'surveyAudience' },
  SurveyResponse: { type: 'surveyResponse', omit: ['respondentIndex'] },
  SurveyResponseTombstone: { type: 'surveyResponseDeletion' },
  IdeaVote: { type: 'ideaVote' },
  IdeaComment: { type: 'ideaComment' },
  OAuthClient: { type: 'oauthClient' },
  // An agent's access, as a key's: who holds it and what it may do, never its tokens' hashes.
  DerivedKey: { type: 'derivedKey', omit: ['accessHash', 'refreshHash', 'usedRefreshHashes'] },

  // What authentication reads instead of the workspace item (lib/admin/workspaces.ts): rewritten from it.
  WorkspaceCopy: { leftOut: 'derived', what: 'copies of the workspace item' },
  // A survey's status, version and targeting digest in 16 copies a submit checks (lib/surveys/responses/collecting.ts).
  SurveyCollectingState: { leftOut: 'derived', what: 'copies of each survey’s collecting state' },
  IdeaCounter: { leftOut: 'derived', what: 'counters' },
  SopSerialCounter: { leftOut: 'derived', what: 'counters' },
  WebhookCounter: { leftOut: 'derived', what: 'counters' },
  JourneyCounter: { leftOut: 'derived', what: 'counters' },
  SurveyCounter: { leftOut: 'derived', what: 'counters' },
  SurveyResponseCounter: { leftOut: 'derived', what: 'counters' },
  KbCategorySlug: { leftOut: 'derived', what: 'slug claims' },
  KbArticleSlug: { leftOut: 'derived', what: 'slug claims' },
  KbBacklink: { leftOut: 'derived', what: 'indexes' },
  JourneyMetricBinding: { leftOut: 'derived', what: 'indexes' },
  SurveyRespondent: { leftOut: 'derived', what: 'indexes' },
  KbSearchManifest: { leftOut: 'derived', what: 'search index' },
  SurveyDayBucket: { leftOut: 'derived', what: 'survey summaries' },
  SurveyResponseCounted: { leftOut: 'derived', what: 'survey summaries' },
  // An idea's vote sums and comment counts (the votes and comments are exported), its places in the lists by
  // votes and trending, and the index the erasure of a submitter finds their ideas by.
  IdeaVoteCount: { leftOut: 'derived', what: 'counters' },
  IdeaCommentCounter: { leftOut: 'derived', what: 'counters' },
  IdeaRank: { leftOut: 'derived', what: 'indexes' },
  IdeaSubmitterIndex: { leftOut: 'derived', what: 'indexes' },
  IdempotencyRecord: { leftOut: 'transient', what: 'remembered create responses' },
  OAuthConsent: { leftOut: 'transient', what: 'consents in progress' },
  WebhookRateSlot: { leftOut: 'transient', what: 'webhook rate slots' },
  WebhookRecovery: { leftOut: 'transient', what: 'webhook recovery jobs' },
  SurveyExport: { leftOut: 'transient', what: 'export jobs' },
};

/**
 * A stored document as JSON: brotli JSON (lib/platform/data/compressed-json.ts), or raw deflate JSON
 * (survey versions written before it); anything else as base64, marked so.
 */
function decodeBinary(bytes: Uint8Array): unknown {
  for (const inflate of [brotliDecompressSync, inflateRawSync]) {
    try {
      return JSON.parse(inflate(bytes).toString('utf8'));
    } catch {
      // Not this encoding: try the next.
    }
  }
  return { base64: Buffer.from(bytes).toString('base64') };
}

/** A stored value as plain JSON: sets as sorted arrays, binary documents decoded. */
function plain(value: unknown): unknown {
  if (value instanceof Uint8Array) return decodeBinary(value);
  if (value instanceof Set) return [...value].sort();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** The export line of one item, or which kind of left-out item it is. */
export function exportLineOf(item: Item): { type: string; data: Record<string, unknown> } | { leftOut: LeftOut; what: string } {
  const entity = String(item.entity ?? '');
  const rule = EXPORT_RULES[entity];
  if (!rule) {
    throw new AdminError(
      `Item ${String(item.sk)} is of a kind the export does not know (entity "${entity}"): nothing was written. ` +
        'Add it to EXPORT_RULES in lib/admin/workspace-export.ts (and to the format in docs/operating.md).',
    );
  }
  if ('leftOut' in rule) return rule;
  const omitted = new Set([...BOOKKEEPING, ...(rule.omit ?? [])]);
  const data = Object.fromEntries(
    Object.entries(item)
      .filter(([name]) => !omitted.has(name))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => [name, plain(value)]),
  );
  return { type: rule.type, data };
}

export interface ExportSummary {
  workspace: string;
  file: string;
  records: number;
  byType: Record<string, number>;
  leftOut: Record<string, number>;
  bytes: number;
}

/** Writes the export of `slug` to `file`; `progress` hears the records written so far, after each page. */
export async function exportWorkspace(
  store: TableClient,
  slug: string,
  file: string,
  progress: (records: number) => void = () => {},
): Promise<ExportSummary> {
  if (!(await findWorkspace(store, slug))) throw new AdminError(`Workspace "${slug}" does not exist`);
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { encoding: 'utf8', mode: 0o600 });
  const write = async (line: unknown) => {
    if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
  };
  const summary: ExportSummary = { workspace: slug, file, records: 0, byType: {}, leftOut: {}, bytes: 0 };
  try {
    await write({ ...EXPORT_FORMAT, workspace: slug, exportedAt: new Date().toISOString() });
    for await (const page of workspacePartition(store, slug)) {
      for (const item of page) {
        const line = exportLineOf(item);
        if ('leftOut' in line) {
          const key = `${line.leftOut}: ${line.what}`;
          summary.leftOut[key] = (summary.leftOut[key] ?? 0) + 1;
          continue;
        }
        await write(line);
        summary.records += 1;
        summary.byType[line.type] = (summary.byType[line.type] ?? 0) + 1;
      }
      progress(summary.records);
    }
    await write({ type: 'end', records: summary.records, byType: summary.byType, leftOut: summary.leftOut });
    out.end();
    await once(out, 'finish');
    summary.bytes = out.bytesWritten;
    await rename(partial, file);
    return summary;
  } catch (error) {
    // The file is abandoned: a write still in flight fails on the destroyed stream, which must not
    // end the process with an unhandled 'error' event instead of this error's clear message.
    out.on('error', () => {});
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}
