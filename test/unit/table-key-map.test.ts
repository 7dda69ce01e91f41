/**
 * The single table's key map (lib/platform/data/keys.ts): no Query range or prefix of one entity
 * may ever return another entity's item. Every entity of every area is listed here with sample keys
 * (edge-case ids included), and every range a Query reads with the entities it may hold.
 */
import { describe, expect, it } from 'vitest';
import { ideaCounterEntity, ideaEntity } from '../../lib/ideas/entities.ts';
import { journeyCounterEntity, journeyEntity, journeyMetricBindingEntity, journeyVersionEntity } from '../../lib/journeys/entities.ts';
import {
  kbArticleEntity,
  kbArticleSlugEntity,
  kbBacklinkEntity,
  kbCategoryEntity,
  kbCategorySlugEntity,
  kbContentEntity,
  kbLinksEntity,
} from '../../lib/knowledge-bank/entities.ts';
import { kbSearchManifestEntity } from '../../lib/knowledge-bank/search/entities.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import {
  directoryPersonEntity,
  directoryTeamEntity,
  sopCommentEntity,
  sopEntity,
  sopSerialCounterEntity,
} from '../../lib/sops/entities.ts';
import {
  collectingStateEntity,
  surveyAudienceEntity,
  surveyCounterEntity,
  surveyDesignsEntity,
  surveyEntity,
  surveyVersionEntity,
} from '../../lib/surveys/entities.ts';
import { surveyExportEntity } from '../../lib/surveys/exports/entities.ts';
import {
  respondentEntity,
  responseCounterEntity,
  responseIdOfKey,
  responseTombstoneEntity,
  SURVEY_RESPONSE_SHARDS,
  surveyResponseEntity,
  surveyResponseShardOf,
} from '../../lib/surveys/responses/entities.ts';
import { countedMarkerEntity, dayBucketEntity } from '../../lib/surveys/summary/entities.ts';
import { webhookCounterEntity, webhookDeliveryEntity, webhookEntity } from '../../lib/webhooks/entities.ts';

const SLUG = 'acme';
const UUIDS = ['00000000-0000-7000-8000-000000000000', 'ffffffff-ffff-7fff-bfff-ffffffffffff', '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b'];
// SOP ids and webhook event ids: [A-Za-z0-9_-], the lowest and highest of that alphabet included.
const PLAIN_IDS = ['-', 'zzzz', 'A_b-9', '0'];
// Knowledge-bank slugs: lowercase letters of any script and digits joined by hyphens.
const KB_SLUGS = ['a', '0', 'zzzz', 'الفواتير-والمدفوعات', 'refunds-2', 'ﻼ'];

/** One entity's sort keys, as the key map builds them. */
const entities: Record<string, string[]> = {
  workspace: [keys.workspace(SLUG).sk],
  workspaceCopy: [0, 7].map((copy) => keys.workspaceCopy(SLUG, copy).sk),
  developerKey: PLAIN_IDS.map((id) => keys.developerKey(SLUG, id).sk),
  directoryPerson: UUIDS.map((id) => directoryPersonEntity.keys.person(SLUG, id).sk),
  directoryTeam: UUIDS.map((id) => directoryTeamEntity.keys.team(SLUG, id).sk),
  idempotency: ['POST /ideas', 'POST /webhooks', `POST /journeys/${UUIDS[0]}/versions`].flatMap((scope) =>
    ['!', '~~~', 'abc'].map((key) => keys.idempotency(SLUG, scope, key).sk),
  ),
  idea: UUIDS.map((id) => ideaEntity.keys.idea(SLUG, id).sk),
  ideaCounter: [ideaCounterEntity.keys.counter(SLUG).sk],
  sop: PLAIN_IDS.map((id) => sopEntity.keys.sop(SLUG, id).sk),
  sopComment: PLAIN_IDS.map((id) => sopCommentEntity.keys.comment(SLUG, id, '2026-01-01T00:00:00.000Z', UUIDS[0]!).sk),
  sopSerialCounter: [sopSerialCounterEntity.keys.counter(SLUG, null).sk, sopSerialCounterEntity.keys.counter(SLUG, UUIDS[1]!).sk],
  webhook: UUIDS.map((id) => webhookEntity.keys.webhook(SLUG, id).sk),
  webhookCounter: [webhookCounterEntity.keys.counter(SLUG).sk],
  webhookDelivery: UUIDS.flatMap((id) => PLAIN_IDS.map((event) => webhookDeliveryEntity.keys.delivery(SLUG, id, `evt_${event}`).sk)),
  journey: UUIDS.map((id) => journeyEntity.keys.journey(SLUG, id).sk),
  // Version keys are the version id with its hex digits complemented (lib/journeys/record.ts).
  journeyVersion: UUIDS.flatMap((id) => UUIDS.map((version) => journeyVersionEntity.keys.version(SLUG, id, version).sk)),
  journeyCounter: [journeyCounterEntity.keys.counter(SLUG).sk],
  kbCategory: UUIDS.map((id) => kbCategoryEntity.keys.category(SLUG, id).sk),
  kbCategorySlug: KB_SLUGS.map((slug) => kbCategorySlugEntity.keys.slug(SLUG, slug).sk),
  kbArticle: UUIDS.map((id) => kbArticleEntity.keys.article(SLUG, id).sk),
  kbArticleSlug: KB_SLUGS.map((slug) => kbArticleSlugEntity.keys.slug(SLUG, slug).sk),
  kbDraft: UUIDS.map((id) => kbContentEntity.keys.draft(SLUG, id).sk),
  kbLive: UUIDS.map((id) => kbContentEntity.keys.live(SLUG, id).sk),
  kbRevision: UUIDS.flatMap((id) => [1, 2, 10, 999_999_999].map((n) => kbContentEntity.keys.revision(SLUG, id, n).sk)),
  kbLinks: UUIDS.flatMap((id) => (['DRAFT', 'LIVE'] as const).map((view) => kbLinksEntity.keys.links(SLUG, id, view).sk)),
  kbBacklink: UUIDS.flatMap((target) =>
    (['DRAFT', 'LIVE'] as const).flatMap((view) => UUIDS.map((source) => kbBacklinkEntity.keys.backlink(SLUG, target, view, source).sk)),
  ),
  // Knowledge-bank search (issue 18): one segment manifest per workspace.
  kbSearchManifest: [kbSearchManifestEntity.keys.manifest(SLUG).sk],
  survey: UUIDS.map((id) => surveyEntity.keys.survey(SLUG, id).sk),
  surveyCounter: [surveyCounterEntity.keys.counter(SLUG).sk],
  surveyVersion: UUIDS.flatMap((id) => UUIDS.map((versionId) => surveyVersionEntity.keys.version(SLUG, id, versionId).sk)),
  surveyDesigns: [surveyDesignsEntity.keys.designs(SLUG).sk],
  surveyAudience: [surveyAudienceEntity.keys.audience(SLUG).sk],
  // Survey responses: respondent hashes are 43 base64url characters (lib/surveys/responses/record.ts).
  surveyResponse: UUIDS.flatMap((id) => UUIDS.map((responseId) => surveyResponseEntity.keys.response(SLUG, id, responseId).sk)),
  legacySurveyResponse: UUIDS.flatMap((id) => UUIDS.map((responseId) => surveyResponseEntity.keys.legacy(SLUG, id, responseId).sk)),
  surveyResponseCounter: UUIDS.flatMap((id) => [0, 7, 15, 63].map((shard) => responseCounterEntity.keys.counter(SLUG, id, shard).sk)),
  surveyCollectingCopy: UUIDS.flatMap((id) => [0, 15, 31].map((copy) => collectingStateEntity.keys.copy(SLUG, id, copy).sk)),
  surveyResponseTombstone: UUIDS.flatMap((id) =>
    UUIDS.map((responseId) => responseTombstoneEntity.keys.tombstone(SLUG, id, responseId).sk),
  ),
  surveyRespondent: ['-'.repeat(43), 'z'.repeat(43), 'A_b-9'.padEnd(43, '0')].flatMap((hash) =>
    UUIDS.flatMap((id) => UUIDS.map((responseId) => respondentEntity.keys.respondent(SLUG, hash, id, responseId).sk)),
  ),
  surveyDayBucket: UUIDS.flatMap((id) =>
    ['2026-01-01', '2026-12-31'].flatMap((day) =>
      UUIDS.flatMap((versionId) => [undefined, 0, 63].map((shard) => dayBucketEntity.keys.bucket(SLUG, id, day, versionId, shard).sk)),
    ),
  ),
  surveyResponseCounted: UUIDS.flatMap((id) => UUIDS.map((responseId) => countedMarkerEntity.keys.marker(SLUG, id, responseId).sk)),
  legacySurveyResponseCounted: UUIDS.flatMap((id) => UUIDS.map((responseId) => countedMarkerEntity.keys.legacy(SLUG, id, responseId).sk)),
  surveyExport: UUIDS.flatMap((id) => UUIDS.map((exportId) => surveyExportEntity.keys.export(SLUG, id, exportId).sk)),
  surveyMetricBinding: UUIDS.flatMap((id) => UUIDS.map((journeyId) => journeyMetricBindingEntity.keys.binding(SLUG, id, journeyId).sk)),
};

const between = (from: string, to: string) => (sk: string) => sk >= from && sk <= to;
const prefix = (p: string) => (sk: string) => sk.startsWith(p);

/** Every range a Query reads, and the only entities it may meet. */
const ranges: { name: string; holds: (sk: string) => boolean; may: string[] }[] = [
  { name: 'developer keys of a workspace', holds: prefix(keys.developerKeyPrefix), may: ['developerKey'] },
  { name: 'the SOP directory', holds: prefix(directoryPersonEntity.keys.directoryPrefix), may: ['directoryPerson', 'directoryTeam'] },
  { name: 'directory people', holds: prefix(directoryPersonEntity.keys.prefix), may: ['directoryPerson'] },
  { name: 'directory teams', holds: prefix(directoryTeamEntity.keys.prefix), may: ['directoryTeam'] },
  { name: 'the idea list', holds: between(ideaEntity.keys.list.from, ideaEntity.keys.list.to), may: ['idea', 'ideaCounter'] },
  ...PLAIN_IDS.map((id) => ({
    name: `the item collection of SOP ${id}`,
    holds: (sk: string) => sk >= sopEntity.keys.sop(SLUG, id).sk && sk <= sopEntity.keys.collectionEnd(id),
    may: ['sop', 'sopComment'],
  })),
  { name: 'the survey list', holds: between(surveyEntity.keys.list.from, surveyEntity.keys.list.to), may: ['survey', 'surveyCounter'] },
  ...UUIDS.flatMap((id) =>
    [0, 1, 62, 63].map((shard) => ({
      name: `range ${shard} of the responses of survey ${id}`,
      holds: between(surveyResponseEntity.keys.shardRange(id, shard).from, surveyResponseEntity.keys.shardRange(id, shard).to),
      may: ['surveyResponse'],
    })),
  ),
  // cxctl rebuild summaries (lib/admin/rebuild-summaries.ts): every survey, then each survey's markers.
  { name: 'every survey of a workspace', holds: prefix(surveyEntity.keys.list.from), may: ['survey'] },
  ...UUIDS.map((id) => ({
    name: `the summary markers of survey ${id}`,
    holds: prefix(countedMarkerEntity.keys.marker(SLUG, id, '').sk),
    may: ['surveyResponseCounted'],
  })),
  ...UUIDS.map((id) => ({
    name: `every range of the responses of survey ${id}`,
    holds: prefix(surveyResponseEntity.keys.prefix(id)),
    may: ['surveyResponse'],
  })),
  ...UUIDS.map((id) => ({
    name: `the aggregator's markers of survey ${id}, in both layouts`,
    holds: prefix(countedMarkerEntity.keys.prefix(id)),
    may: ['surveyResponseCounted', 'legacySurveyResponseCounted'],
  })),
  ...UUIDS.map((id) => ({
    name: `the legacy range of the responses of survey ${id}`,
    holds: between(surveyResponseEntity.keys.legacyRange(id).from, surveyResponseEntity.keys.legacyRange(id).to),
    may: ['legacySurveyResponse'],
  })),
  ...UUIDS.map((id) => ({
    name: `the responses of survey ${id} in the legacy layout`,
    holds: prefix(surveyResponseEntity.keys.legacyPrefix(id)),
    may: ['legacySurveyResponse'],
  })),
  ...UUIDS.map((id) => ({
    name: `the response counters of survey ${id}`,
    holds: prefix(responseCounterEntity.keys.prefix(id)),
    may: ['surveyResponseCounter'],
  })),
  ...['-'.repeat(43), 'z'.repeat(43)].flatMap((hash) => [
    { name: `the responses of respondent ${hash}`, holds: prefix(respondentEntity.keys.prefix(hash)), may: ['surveyRespondent'] },
    ...UUIDS.map((id) => ({
      name: `the responses of respondent ${hash} to survey ${id}`,
      holds: prefix(respondentEntity.keys.prefix(hash, id)),
      may: ['surveyRespondent'],
    })),
  ]),
  { name: 'the webhooks of a workspace', holds: prefix(webhookEntity.keys.prefix), may: ['webhook'] },
  ...UUIDS.map((id) => ({
    name: `deliveries of webhook ${id}`,
    holds: prefix(webhookDeliveryEntity.keys.prefix(id)),
    may: ['webhookDelivery'],
  })),
  ...UUIDS.map((id) => ({
    name: `the item collection of journey ${id}`,
    holds: prefix(journeyEntity.keys.journey(SLUG, id).sk),
    may: ['journey', 'journeyVersion'],
  })),
  { name: 'knowledge-bank categories', holds: prefix(kbCategoryEntity.keys.prefix), may: ['kbCategory'] },
  {
    name: 'the knowledge-bank category tree',
    holds: between(kbCategoryEntity.keys.treeRange.from, kbCategoryEntity.keys.treeRange.to),
    may: ['kbCategory', 'kbCategorySlug'],
  },
  { name: 'knowledge-bank articles', holds: prefix(kbArticleEntity.keys.prefix), may: ['kbArticle'] },
  { name: 'knowledge-bank article slugs', holds: prefix(kbArticleSlugEntity.keys.prefix), may: ['kbArticleSlug'] },
  { name: 'knowledge-bank outgoing links', holds: prefix(kbLinksEntity.keys.prefix), may: ['kbLinks'] },
  ...UUIDS.map((id) => ({
    name: `the content of article ${id}`,
    holds: prefix(kbContentEntity.keys.prefix(id)),
    may: ['kbDraft', 'kbLive', 'kbRevision'],
  })),
  ...UUIDS.map((id) => ({
    name: `the revisions of article ${id}`,
    holds: prefix(kbContentEntity.keys.revisionPrefix(id)),
    may: ['kbRevision'],
  })),
  ...UUIDS.map((id) => ({ name: `the backlinks of ${id}`, holds: prefix(kbBacklinkEntity.keys.prefix(id)), may: ['kbBacklink'] })),
  ...UUIDS.map((id) => ({
    name: `the summary buckets of survey ${id} in a range of days`,
    holds: between(
      dayBucketEntity.keys.days(id, '2026-01-01', '2026-12-31').from,
      dayBucketEntity.keys.days(id, '2026-01-01', '2026-12-31').to,
    ),
    may: ['surveyDayBucket'],
  })),
  ...UUIDS.map((id) => ({
    name: `the journeys whose published metrics bind survey ${id}`,
    holds: prefix(journeyMetricBindingEntity.keys.prefix(id)),
    may: ['surveyMetricBinding'],
  })),
];

describe('the table key map', () => {
  it('gives every entity its own sort keys: no two entities share one', () => {
    const owner = new Map<string, string>();
    for (const [entity, sks] of Object.entries(entities)) {
      for (const sk of sks) {
        expect(owner.get(sk), `${sk} of ${entity}`).toBeUndefined();
        owner.set(sk, entity);
      }
    }
  });

  for (const range of ranges) {
    it(`lets ${range.name} meet only ${range.may.join(' and ')}`, () => {
      const strangers = Object.entries(entities)
        .filter(([entity]) => !range.may.includes(entity))
        .flatMap(([entity, sks]) => sks.filter(range.holds).map((sk) => `${entity}: ${sk}`));
      expect(strangers).toEqual([]);
    });
  }

  it('keeps the collection of one SOP free of another SOP whose id starts the same', () => {
    const collection = (id: string) => (sk: string) => sk >= sopEntity.keys.sop(SLUG, id).sk && sk <= sopEntity.keys.collectionEnd(id);
    expect(collection('ab')(sopEntity.keys.sop(SLUG, 'abc').sk)).toBe(false);
    expect(collection('ab')(sopCommentEntity.keys.comment(SLUG, 'abc', '2026', 'x').sk)).toBe(false);
  });

  it('spreads responses over every range, and finds each one in the range its key names', () => {
    const ids = Array.from({ length: 6400 }, (_, i) => `0190a1b2-c3d4-7e5f-8a6b-${String(i).padStart(12, '0')}`);
    const perRange = new Map<number, number>();
    for (const responseId of ids) {
      const shard = surveyResponseShardOf(responseId);
      const range = surveyResponseEntity.keys.shardRange(UUIDS[0]!, shard);
      expect(between(range.from, range.to)(surveyResponseEntity.keys.response(SLUG, UUIDS[0]!, responseId).sk)).toBe(true);
      expect(responseIdOfKey(surveyResponseEntity.keys.response(SLUG, UUIDS[0]!, responseId).sk)).toBe(responseId);
      perRange.set(shard, (perRange.get(shard) ?? 0) + 1);
    }
    // 100 expected per range; a stable hash keeps every range within a third of it.
    expect(perRange.size).toBe(SURVEY_RESPONSE_SHARDS);
    for (const count of perRange.values()) expect(Math.abs(count - 100)).toBeLessThan(34);
  });

  it('keeps the layout migrations outside every workspace', () => {
    expect(keys.tableMigration('002-survey-response-shards').pk).not.toMatch(/^WS#/);
  });

  it('puts every item of a workspace under its own partition', () => {
    expect(ideaEntity.keys.idea('a', UUIDS[0]!).pk).toBe('WS#a');
    expect(ideaEntity.keys.idea('a', UUIDS[0]!).pk).not.toBe(ideaEntity.keys.idea('a-b', UUIDS[0]!).pk);
  });
});
