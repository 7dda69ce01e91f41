/**
 * Every item key of the single table is built here, and nowhere else.
 * Conventions: `pk` is `WS#<slug>` for everything a workspace owns (tenant isolation by key);
 * `sk` starts with the entity's prefix; ids are opaque to DynamoDB.
 */
import { createHash } from 'node:crypto';

/** The partition of everything a workspace owns: no Query can cross tenants. */
export const workspacePk = (slug: string) => `WS#${slug}`;
const TABLE_MIGRATIONS_PK = 'TABLE#MIGRATIONS';

/**
 * Shard counts of the survey-response keys, from the target of 5,000 finished 4 KB submits a second to
 * one survey (docs/survey-responses.md has the arithmetic): 8 write units each (4 KB, twice in a
 * transaction) is 40,000 a second, so at least 40 ranges of 1,000; 64 leaves 1.6× headroom.
 */
const SURVEY_RESPONSE_SHARDS = 64;
/** The change feed's index entries: 1 unit per write, 5 per partial → continue → finish flow (2,000 a second). */
const SURVEY_RESPONSE_FEED_SHARDS = 16;
/**
 * Copies of a survey's collecting state, each checked by the submits and continuations whose response
 * hashes to it: a check is billed as a transactional write of the item (2 units), so the partial →
 * continue → finish flow (3 checks) at 2,000 a second is 12,000 units: 32 copies take 375 each, and
 * 5,000 submits 312.
 */
const SURVEY_COLLECTING_COPIES = 32;
/** Summary buckets of one survey, day and version at most (one per concurrent aggregator instance). */
const SURVEY_DAY_BUCKET_SHARDS = 64;

/** Hex digits of SHA-256: a stable, uniformly spread hash (the same on every instance and in every version). */
function stableHash(value: string, digits: number): string {
  return createHash('sha256').update(value).digest('hex').slice(0, digits);
}

/** Which of `shards` ranges a value (an id) belongs to, by its stable hash: machine-written keys spread evenly. */
export const shardOf = (value: string, shards: number) => Number.parseInt(stableHash(value, 8), 16) % shards;
const surveyResponseShardOf = (responseId: string) => shardOf(responseId, SURVEY_RESPONSE_SHARDS);
const surveyResponseShardPrefix = (surveyId: string, shard: number) => `SURVEYRESP#${surveyId}#${String(shard).padStart(2, '0')}#`;
const surveyResponseFeedPk = (slug: string, surveyId: string, shard: number) =>
  `WS#${slug}#SURVEYRESPONSES#${surveyId}#${String(shard).padStart(2, '0')}`;

export const keys = {
  workspacePk,

  // Workspace: its settings, status, modules and idea labels in one item.
  workspace: (slug: string) => ({ pk: workspacePk(slug), sk: 'WORKSPACE' }),
  /**
   * Whole copies of the workspace item (WORKSPACE_COPIES of them, workspace-record.ts), written in
   * the same transaction as the item itself, so every copy always says what it says. Authentication
   * reads one copy chosen at random, so a workspace's requests spread their strongly consistent
   * reads over that many items (3,000 read units a second each) instead of all landing on one.
   */
  workspaceCopy: (slug: string, copy: number) => ({ pk: workspacePk(slug), sk: `WORKSPACE#COPY#${copy}` }),

  // Developer keys: one item each, holding the secret's hash and the rate-limit counter.
  developerKey: (slug: string, keyId: string) => ({ pk: workspacePk(slug), sk: `KEY#${keyId}` }),
  developerKeyPrefix: 'KEY#',
  /** gsi1 lets `cxctl key revoke <id>` find a key without being told its workspace. */
  developerKeyLookup: (keyId: string) => ({ gsi1pk: `KEYID#${keyId}`, gsi1sk: 'KEY' }),
  /**
   * Failed authentications from one source address (no workspace: the caller proved none), counted
   * per rate-limit window so failed attempts brake their source, never a key's real holder.
   */
  authFailures: (source: string) => ({ pk: `AUTHFAIL#${source}`, sk: 'AUTHFAIL' }),
  /**
   * What a layout migration (lib/admin/migrations/) has done to this table: one item per migration,
   * outside every workspace's partition (it is the table's, not a tenant's).
   */
  tableMigration: (migrationId: string) => ({ pk: TABLE_MIGRATIONS_PK, sk: migrationId }),
  tableMigrationsPk: TABLE_MIGRATIONS_PK,
  /**
   * Where a long operator command (lib/admin/jobs.ts: `cxctl rebuild …`) got to, so a run that was
   * interrupted goes on from there. Table-level, like AUTHFAIL: no workspace's.
   */
  operatorJob: (job: string) => ({ pk: 'TABLE#OPERATOR', sk: `JOB#${job}` }),
  /** The mark `cxctl backup restore` leaves in a table it made (lib/admin/restore-target.ts): the table's, no workspace's. */
  restoreMark: () => ({ pk: 'TABLE#OPERATOR', sk: 'RESTORE' }),

  // SOP directory (people and teams), filled by `cxctl directory import`.
  directoryPerson: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `DIR#PERSON#${id}` }),
  directoryTeam: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `DIR#TEAM#${id}` }),
  directoryPrefix: 'DIR#',
  directoryPersonPrefix: 'DIR#PERSON#',
  directoryTeamPrefix: 'DIR#TEAM#',

  // Idempotency records (lib/platform/data/idempotency.ts): the remembered response of a creating
  // POST under its Idempotency-Key, per operation (`scope`, e.g. `POST /ideas`); TTL 24 h.
  idempotency: (slug: string, scope: string, idempotencyKey: string) => ({
    pk: workspacePk(slug),
    sk: `IDEMPOTENCY#${scope}#${idempotencyKey}`,
  }),

  // SOPs. An SOP and its review comments form one item collection (`SOP#<id>`, then
  // `SOP#<id>#COMMENT#<createdAt>#<commentId>`), so GET /sops/{id} is one Query. The list reads gsi1
  // instead, where only SOP items appear, sorted by status first so "published only" is one range.
  // Ids are [A-Za-z0-9_-] only, all above '#', so the collection range of one id never holds another's.
  sop: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `SOP#${id}` }),
  sopComment: (slug: string, sopId: string, createdAt: string, commentId: string) => ({
    pk: workspacePk(slug),
    sk: `SOP#${sopId}#COMMENT#${createdAt}#${commentId}`,
  }),
  /** Upper bound of an SOP's item collection, for `sk BETWEEN sop.sk AND sopCollectionEnd`. */
  sopCollectionEnd: (sopId: string) => `SOP#${sopId}#~`,
  sopListing: (slug: string, status: string, id: string) => ({ gsi1pk: `WS#${slug}#SOPS`, gsi1sk: `${status}#${id}` }),
  sopListingPk: (slug: string) => `WS#${slug}#SOPS`,
  sopListingStatusPrefix: (status: string) => `${status}#`,
  /** The last serial handed out in a department (`-` = SOPs without a department). */
  sopSerialCounter: (slug: string, departmentId: string | null) => ({
    pk: workspacePk(slug),
    sk: `SOPSERIAL#${departmentId ?? '-'}`,
  }),

  // Journeys (lib/journeys/store/). A journey is `JOURNEY#<id>` and its versions follow it at
  // `JOURNEY#<id>#V#<version key>` (the version id's hex digits complemented, so newest first in
  // ascending order): one Query of the `JOURNEY#<id>` prefix reads the journey, then its versions.
  // Active journeys are also listed in gsi1 under `WS#<slug>#JOURNEYS` by id (UUIDv7: by creation);
  // the counter's `J$COUNT` sorts after every `J#<id>`, so a descending Query returns it first.
  journey: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `JOURNEY#${id}` }),
  journeyVersion: (slug: string, journeyId: string, versionKey: string) => ({
    pk: workspacePk(slug),
    sk: `JOURNEY#${journeyId}#V#${versionKey}`,
  }),
  journeyCounter: (slug: string) => ({ pk: workspacePk(slug), sk: 'JOURNEYCOUNT' }),
  journeyListing: (slug: string, id: string) => ({ gsi1pk: `WS#${slug}#JOURNEYS`, gsi1sk: `J#${id}` }),
  journeyCounterListing: (slug: string) => ({ gsi1pk: `WS#${slug}#JOURNEYS`, gsi1sk: 'J$COUNT' }),
  journeyListingPk: (slug: string) => `WS#${slug}#JOURNEYS`,

  // Knowledge bank (issue 12). Every sort key starts with `KB`, and each kind has its own prefix so
  // one begins_with Query lists exactly one kind (search and link checking, issue 13, read
  // `KBART#` and `KBLINKS#`). Article and category ids are UUIDs ([0-9a-f-], all above '#').
  //   KBCAT#<id>                      a category (the whole tree is one Query of this prefix)
  //   KBCATSLUG#<slug>                claims a category slug (conditional put: unique per workspace)
  //   KBART#<id>                      an article's metadata: small, so lists are one Query
  //   KBARTSLUG#<slug>                claims an article slug
  //   KBDOC#<id>#DRAFT|LIVE|REV#<n>   compressed content: the draft, a copy of the live revision, each revision
  //   KBLINKS#<id>#DRAFT|LIVE         the outgoing links of the draft and of the live revision
  //   KBBACK#<target>#DRAFT|LIVE#<source>  one per article linking to <target> (an article or a category)
  kbCategory: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `KBCAT#${id}` }),
  kbCategoryPrefix: 'KBCAT#',
  kbCategorySlug: (slug: string, categorySlug: string) => ({ pk: workspacePk(slug), sk: `KBCATSLUG#${categorySlug}` }),
  kbCategorySlugPrefix: 'KBCATSLUG#',
  /** Categories and their slug claims, adjacent: the tree and the taken slugs in one Query. */
  kbCategoryTreeRange: { from: 'KBCAT#', to: 'KBCATSLUG$' },
  kbArticle: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `KBART#${id}` }),
  kbArticlePrefix: 'KBART#',
  kbArticleSlug: (slug: string, articleSlug: string) => ({ pk: workspacePk(slug), sk: `KBARTSLUG#${articleSlug}` }),
  kbArticleSlugPrefix: 'KBARTSLUG#',
  kbDraft: (slug: string, articleId: string) => ({ pk: workspacePk(slug), sk: `KBDOC#${articleId}#DRAFT` }),
  kbLive: (slug: string, articleId: string) => ({ pk: workspacePk(slug), sk: `KBDOC#${articleId}#LIVE` }),
  /** Zero-padded so revisions sort by number. */
  kbRevision: (slug: string, articleId: string, revision: number) => ({
    pk: workspacePk(slug),
    sk: `KBDOC#${articleId}#REV#${String(revision).padStart(9, '0')}`,
  }),
  kbRevisionPrefix: (articleId: string) => `KBDOC#${articleId}#REV#`,
  kbDocumentPrefix: (articleId: string) => `KBDOC#${articleId}#`,
  kbLinks: (slug: string, articleId: string, view: 'DRAFT' | 'LIVE') => ({ pk: workspacePk(slug), sk: `KBLINKS#${articleId}#${view}` }),
  /** Every article's outgoing links (the link checker of issue 13 reads this prefix). */
  kbLinksPrefix: 'KBLINKS#',
  /** Which view's links a `KBLINKS#` item holds, by its sort key. */
  kbLinksViewOf: (sk: string): 'DRAFT' | 'LIVE' => (sk.endsWith('#LIVE') ? 'LIVE' : 'DRAFT'),
  kbBacklink: (slug: string, targetId: string, view: 'DRAFT' | 'LIVE', sourceId: string) => ({
    pk: workspacePk(slug),
    sk: `KBBACK#${targetId}#${view}#${sourceId}`,
  }),
  kbBacklinkPrefix: (targetId: string) => `KBBACK#${targetId}#`,

  // Knowledge-bank search (issue 18): the list of a workspace's index segments in S3, with a
  // version every change of it is conditioned on, so builders racing on one workspace never lose a
  // segment. Its entity (KbSearchManifest) is not one the search builder's stream filter passes.
  kbSearchManifest: (slug: string) => ({ pk: workspacePk(slug), sk: 'KBSEARCH#MANIFEST' }),
  // Surveys (lib/surveys/store/). Survey ids are UUIDv7, so `SURVEY#<id>` sorts by creation and a
  // descending Query lists newest first; the per-status counter `SURVEY$COUNT` sorts just after every
  // survey ('$' > '#'), so that same Query returns the totals first. The range SURVEY# … SURVEY$COUNT
  // holds only surveys and the counter: versions, designs and the audience catalog start `SURVEY`
  // followed by a letter, which sorts after '$'.
  survey: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `SURVEY#${id}` }),
  surveyCounter: (slug: string) => ({ pk: workspacePk(slug), sk: 'SURVEY$COUNT' }),
  surveyListRange: { from: 'SURVEY#', to: 'SURVEY$COUNT' },
  surveyVersion: (slug: string, surveyId: string, versionId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYVERSION#${surveyId}#${versionId}`,
  }),
  // One item each per workspace: every survey design (one attribute per design) and the audience catalog.
  surveyDesigns: (slug: string) => ({ pk: workspacePk(slug), sk: 'SURVEYDESIGNS' }),
  surveyAudience: (slug: string) => ({ pk: workspacePk(slug), sk: 'SURVEYAUDIENCE' }),

  // Survey responses (lib/surveys/responses/). Machines write these (every submit, continue and
  // aggregator fold), so none of their ranges may take every write at its end: DynamoDB serves 1,000
  // write units a second per partition and does not split a range written in ascending order (DynamoDB
  // paper, USENIX ATC 2022 §4.4). The arithmetic behind each count is in docs/survey-responses.md.
  //   SURVEYRESP#<survey>#<shard>#<id>   a response, in one of 64 ranges by a stable hash of its id: the
  //                                      list merges the ranges (ids are UUIDv7, so each range sorts by creation)
  //   SURVEYRESPONSE#<survey>$COUNT#<nn> the per-(version, status) counters, one item per range
  //   SURVEYSTATE#<survey>#<nn>          32 copies of the survey's collecting state, which a submit checks
  //                                      instead of the survey item (written with every change of that state)
  //   SURVEYRESPONSETOMB#<survey>#<id>   what the change feed keeps of a deleted response (TTL 30 days)
  //   SURVEYRESPONDENT#<hash>#<survey>#<id>  a respondent's responses, by a keyed hash, never the identifier
  // The change feed reads gsi1 in order of change, under 16 partition keys per survey
  // (`WS#<slug>#SURVEYRESPONSES#<survey>#<nn>`), merged by the reader.
  // The layout before migration 002 (lib/admin/migrations/) kept every response in one ascending range
  // `SURVEYRESPONSE#<survey>#<id>` and the feed under one key: `legacy…` names those, read until the
  // migration has finished and by the migration itself.
  surveyResponse: (slug: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(slug),
    sk: `${surveyResponseShardPrefix(surveyId, surveyResponseShardOf(responseId))}${responseId}`,
  }),
  /** What every range of the survey's responses starts with (a walk of all of them, in range order, not time order). */
  surveyResponsePrefix: (surveyId: string) => `SURVEYRESP#${surveyId}#`,
  surveyResponseShards: SURVEY_RESPONSE_SHARDS,
  surveyResponseShardOf,
  surveyResponseShardPrefix,
  /** Inclusive `sk BETWEEN` bounds of one range of a survey's responses ('~' sorts after every id character). */
  surveyResponseShardRange: (surveyId: string, shard: number) => ({
    from: surveyResponseShardPrefix(surveyId, shard),
    to: `${surveyResponseShardPrefix(surveyId, shard)}~`,
  }),
  legacySurveyResponse: (slug: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYRESPONSE#${surveyId}#${responseId}`,
  }),
  legacySurveyResponsePrefix: (surveyId: string) => `SURVEYRESPONSE#${surveyId}#`,
  /** Inclusive bounds of the legacy range, without the counters that follow it. */
  legacySurveyResponseRange: (surveyId: string) => ({ from: `SURVEYRESPONSE#${surveyId}#`, to: `SURVEYRESPONSE#${surveyId}#~` }),
  /** The response id at the end of a response's sort key, in either layout. */
  responseIdOfKey: (sk: string) => sk.slice(sk.lastIndexOf('#') + 1),
  surveyResponseCounter: (slug: string, surveyId: string, shard: number) => ({
    pk: workspacePk(slug),
    sk: `SURVEYRESPONSE#${surveyId}$COUNT#${String(shard).padStart(2, '0')}`,
  }),
  surveyResponseCounterPrefix: (surveyId: string) => `SURVEYRESPONSE#${surveyId}$COUNT#`,
  surveyCollectingCopies: SURVEY_COLLECTING_COPIES,
  surveyCollectingCopy: (slug: string, surveyId: string, copy: number) => ({
    pk: workspacePk(slug),
    sk: `SURVEYSTATE#${surveyId}#${String(copy).padStart(2, '0')}`,
  }),
  surveyResponseTombstone: (slug: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYRESPONSETOMB#${surveyId}#${responseId}`,
  }),
  surveyResponseFeedShards: SURVEY_RESPONSE_FEED_SHARDS,
  surveyResponseFeed: (slug: string, surveyId: string, changedAt: string, responseId: string) => ({
    gsi1pk: surveyResponseFeedPk(slug, surveyId, surveyResponseShardOf(responseId) % SURVEY_RESPONSE_FEED_SHARDS),
    gsi1sk: `${changedAt}#${responseId}`,
  }),
  surveyResponseFeedPk,
  legacySurveyResponseFeedPk: (slug: string, surveyId: string) => `WS#${slug}#SURVEYRESPONSES#${surveyId}`,
  surveyRespondent: (slug: string, respondentHash: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYRESPONDENT#${respondentHash}#${surveyId}#${responseId}`,
  }),
  surveyRespondentPrefix: (respondentHash: string, surveyId?: string) =>
    `SURVEYRESPONDENT#${respondentHash}#${surveyId ? `${surveyId}#` : ''}`,
  // Survey summaries (lib/surveys/summary/): counter buckets per survey, UTC day and version, written
  // only by the stream aggregator. Day-major (`SURVEYDAY#<surveyId>#<YYYY-MM-DD>#<versionId>[#<nn>]`), so
  // the days `from`…`to` of every version are one Query range; versions filter in memory. A busy day
  // has several buckets (`#<nn>`, one per concurrent aggregator instance, lib/surveys/summary/aggregator.ts),
  // which the summary adds up; a bucket without a suffix is one written before migration 002, kept as it is.
  surveyDayBucket: (slug: string, surveyId: string, day: string, versionId: string, shard?: number) => ({
    pk: workspacePk(slug),
    sk: `SURVEYDAY#${surveyId}#${day}#${versionId}${shard === undefined ? '' : `#${String(shard).padStart(2, '0')}`}`,
  }),
  surveyDayBucketShards: SURVEY_DAY_BUCKET_SHARDS,
  /** Inclusive `sk BETWEEN` bounds of a survey's buckets of the days `from`…`to` ('~' sorts after every id). */
  surveyDayRange: (surveyId: string, from: string, to: string) => ({
    from: `SURVEYDAY#${surveyId}#${from}`,
    to: `SURVEYDAY#${surveyId}#${to}#~`,
  }),
  // Journey metrics bound to a survey (lib/journeys/survey-bindings.ts): one item per survey and journey
  // whose published version binds its questions without pinning a version, written with that publish,
  // so a survey publish finds the journeys it would unbind with one Query of `SURVEYMETRIC#<surveyId>#`.
  surveyMetricBinding: (slug: string, surveyId: string, journeyId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYMETRIC#${surveyId}#${journeyId}`,
  }),
  surveyMetricBindingPrefix: (surveyId: string) => `SURVEYMETRIC#${surveyId}#`,
  // What the aggregator last counted of one response (revision, bucket, contribution), so a replayed,
  // duplicated or reordered stream record is counted once; a removed response keeps a tombstone (TTL).
  // Read and written by key only, and keyed by a hash of the response id, so new markers land all
  // over the key space rather than at the end of one range (the legacy key did: `…#<UUIDv7>`).
  surveyResponseCounted: (slug: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYCOUNTED#${surveyId}#${stableHash(responseId, 8)}#${responseId}`,
  }),
  /** What a survey's markers start with, in both layouts (the migration and a summary rebuild walk them). */
  surveyResponseCountedPrefix: (surveyId: string) => `SURVEYCOUNTED#${surveyId}#`,
  legacySurveyResponseCounted: (slug: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYCOUNTED#${surveyId}#${responseId}`,
  }),
  // Survey exports (lib/surveys/exports/): one record per export job, expiring with its file (TTL 24 h).
  surveyExport: (slug: string, surveyId: string, exportId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYEXPORT#${surveyId}#${exportId}`,
  }),
} as const;
