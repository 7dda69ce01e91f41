/**
 * Every item key of the single table is built here, and nowhere else.
 * Conventions: `pk` is `WS#<slug>` for everything a workspace owns (tenant isolation by key);
 * `sk` starts with the entity's prefix; ids are opaque to DynamoDB.
 */

const workspacePk = (slug: string) => `WS#${slug}`;

export const keys = {
  workspacePk,

  // Workspace: its settings, status, modules and idea labels in one item.
  workspace: (slug: string) => ({ pk: workspacePk(slug), sk: 'WORKSPACE' }),

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
   * Where a long operator command (lib/admin/jobs.ts: `cxctl rebuild …`) got to, so a run that was
   * interrupted goes on from there. Table-level, like AUTHFAIL: no workspace's.
   */
  operatorJob: (job: string) => ({ pk: 'TABLE#OPERATOR', sk: `JOB#${job}` }),

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

  // Ideas. Ids are UUIDv7 (time-ordered), so `IDEA#<id>` sorts by creation and a descending
  // Query lists newest first. The per-workspace counter sorts just after every idea
  // ('$' > '#'), so that same descending Query returns the total first, in one round trip.
  // The range IDEA# … IDEA$COUNTER must hold nothing but ideas and the counter.
  idea: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `IDEA#${id}` }),
  ideaCounter: (slug: string) => ({ pk: workspacePk(slug), sk: 'IDEA$COUNTER' }),
  ideaListRange: { from: 'IDEA#', to: 'IDEA$COUNTER' },

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

  // Webhooks: one item each (holding the signing secret), plus one counter item per workspace that
  // create and delete change in the same transaction, so the 50-per-workspace limit holds under
  // concurrency. The counter's sort key must not start with `WEBHOOK#`, which lists webhooks.
  webhook: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `WEBHOOK#${id}` }),
  webhookPrefix: 'WEBHOOK#',
  webhookCounter: (slug: string) => ({ pk: workspacePk(slug), sk: 'WEBHOOKCOUNT' }),
  // One delivery per (webhook, event); event ids sort by time, so a descending query is newest first.
  webhookDelivery: (slug: string, webhookId: string, eventId: string) => ({
    pk: workspacePk(slug),
    sk: `WHDELIVERY#${webhookId}#${eventId}`,
  }),
  webhookDeliveryPrefix: (webhookId: string) => `WHDELIVERY#${webhookId}#`,

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

  // Survey responses (lib/surveys/responses/). Response ids are UUIDv7, so `SURVEYRESPONSE#<surveyId>#`
  // lists one survey's responses by creation. Its response counters (one per shard, so 1,000
  // submits a second spread over several items) sort just after them ('$' > '#'): a descending Query
  // of `surveyResponseListRange` returns the counters first, then the newest responses.
  // A deleted or erased response leaves a tombstone (no answers, no respondent) for the change feed,
  // which reads gsi1 (`surveyResponseFeed`) in order of change. `SURVEYRESPONDENT#<hash>#…` finds a
  // respondent's responses by a keyed hash of their externalId or e-mail, never the identifier itself.
  surveyResponse: (slug: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYRESPONSE#${surveyId}#${responseId}`,
  }),
  surveyResponsePrefix: (surveyId: string) => `SURVEYRESPONSE#${surveyId}#`,
  surveyResponseCounter: (slug: string, surveyId: string, shard: number) => ({
    pk: workspacePk(slug),
    sk: `SURVEYRESPONSE#${surveyId}$COUNT#${String(shard).padStart(2, '0')}`,
  }),
  surveyResponseListRange: (surveyId: string) => ({ from: `SURVEYRESPONSE#${surveyId}#`, to: `SURVEYRESPONSE#${surveyId}$COUNT#~` }),
  surveyResponseTombstone: (slug: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYRESPONSETOMB#${surveyId}#${responseId}`,
  }),
  surveyResponseFeed: (slug: string, surveyId: string, changedAt: string, responseId: string) => ({
    gsi1pk: `WS#${slug}#SURVEYRESPONSES#${surveyId}`,
    gsi1sk: `${changedAt}#${responseId}`,
  }),
  surveyResponseFeedPk: (slug: string, surveyId: string) => `WS#${slug}#SURVEYRESPONSES#${surveyId}`,
  surveyRespondent: (slug: string, respondentHash: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYRESPONDENT#${respondentHash}#${surveyId}#${responseId}`,
  }),
  surveyRespondentPrefix: (respondentHash: string, surveyId?: string) =>
    `SURVEYRESPONDENT#${respondentHash}#${surveyId ? `${surveyId}#` : ''}`,
  // Survey summaries (lib/surveys/summary/): one counter bucket per survey, UTC day and version, written
  // only by the stream aggregator. Day-major (`SURVEYDAY#<surveyId>#<YYYY-MM-DD>#<versionId>`), so the
  // days `from`…`to` of every version are one Query range; versions filter in memory.
  surveyDayBucket: (slug: string, surveyId: string, day: string, versionId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYDAY#${surveyId}#${day}#${versionId}`,
  }),
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
  surveyResponseCounted: (slug: string, surveyId: string, responseId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYCOUNTED#${surveyId}#${responseId}`,
  }),
  // Survey exports (lib/surveys/exports/): one record per export job, expiring with its file (TTL 24 h).
  surveyExport: (slug: string, surveyId: string, exportId: string) => ({
    pk: workspacePk(slug),
    sk: `SURVEYEXPORT#${surveyId}#${exportId}`,
  }),
} as const;
