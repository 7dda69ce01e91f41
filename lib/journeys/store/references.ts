/**
 * References: what diagnostics need to know about the workspace (paired journeys, pinned versions,
 * linked records), read level by level with the metadata projection. One round per level.
 */

import { ideaEntity } from '../../ideas/entities.ts';
import { getMany, type Item, type TableKey } from '../../platform/data/batch.ts';
import { sopEntity } from '../../sops/entities.ts';
import { lookUpLinkedSurveys, lookUpSurveyQuestions } from '../../surveys/question-lookup.ts';
import type { JourneyContent } from '../content.ts';
import type { PairTarget } from '../cycles.ts';
import {
  followedPairs,
  type JourneyFacts,
  linkFactsKey,
  linkRefsOf,
  pairTargetsOf,
  type ReferenceFacts,
  type VersionFacts,
  versionFactsKey,
} from '../diagnostics.ts';
import { journeyEntity, journeyVersionEntity } from '../entities.ts';
import { boundCellsOf } from '../metric-bindings.ts';
import { pairsFromAttribute } from '../record.ts';
import { METADATA_ATTRIBUTES } from './items.ts';

/**
 * Levels of paired journeys followed for one save or publish: each is a round trip, and a chain
 * deeper than this is reported (`pairs_too_deep`) rather than walked until the Lambda times out.
 */
const MAX_REFERENCE_LEVELS = 32;

/**
 * Loads the facts the content's references need: level 1 is every journey its pairs name, every
 * pinned version and every linked idea, SOP and journey, in one BatchGetItem (plus `alsoGet`, the
 * caller's own items, in that same round); each further level follows the pairs of what the previous
 * one found, until nothing new is named. One round per level of paired journeys. Linked and bound
 * surveys are the surveys area's to read (lib/surveys/question-lookup.ts), beside level 1: linked
 * ones in one BatchGetItem more, bound ones in two rounds of their own.
 */
export async function loadReferenceFacts(workspace: string, content: JourneyContent, alsoGet: readonly TableKey[] = []) {
  const sources = boundCellsOf(content).map((bound) => bound.source);
  const surveysRead = sources.length > 0 ? lookUpSurveyQuestions(workspace, sources) : Promise.resolve(new Map());
  const linkedSurveyIds = linkRefsOf(content).flatMap((ref) => (ref.kind === 'survey' ? [ref.id] : []));
  const linkedSurveysRead = linkedSurveyIds.length > 0 ? lookUpLinkedSurveys(workspace, linkedSurveyIds) : Promise.resolve(new Map());
  // Awaited below; this only keeps a failure from going unhandled while a reference level fails first.
  surveysRead.catch(() => undefined);
  linkedSurveysRead.catch(() => undefined);
  const journeys = new Map<string, JourneyFacts>();
  const versions = new Map<string, VersionFacts>();
  const existingLinks = new Set<string>();
  const archivedLinks = new Set<string>();
  const requested = new Set<string>();
  const linkBySortKey = new Map<string, string>();
  const facts: ReferenceFacts & { depthLimit?: number } = { journeys, versions, existingLinks, archivedLinks };

  const keysFor = (targets: readonly PairTarget[]) => {
    const wanted: TableKey[] = [];
    const want = (key: TableKey) => {
      if (requested.has(key.sk)) return;
      requested.add(key.sk);
      wanted.push(key);
    };
    for (const target of targets) {
      want(journeyEntity.keys.journey(workspace, target.journeyId));
      if (target.versionId !== undefined) want(journeyVersionEntity.keys.version(workspace, target.journeyId, target.versionId));
    }
    return { wanted, want };
  };

  const first = keysFor(pairTargetsOf(content));
  for (const ref of linkRefsOf(content)) {
    const key =
      ref.kind === 'idea'
        ? ideaEntity.keys.idea(workspace, ref.id)
        : ref.kind === 'sop'
          ? sopEntity.keys.sop(workspace, ref.id)
          : ref.kind === 'journey'
            ? journeyEntity.keys.journey(workspace, ref.id)
            : null; // a survey: the surveys area reads it (lookUpLinkedSurveys)
    if (!key) continue;
    linkBySortKey.set(key.sk, linkFactsKey(ref.kind, ref.id));
    first.want(key);
  }
  const own = new Map<string, Item>();
  const ownKeys = new Set(alsoGet.map((key) => key.sk));
  let batch = [...alsoGet.filter((key) => !requested.has(key.sk)), ...first.wanted];
  const followed = new Set<string>();
  const notYetFollowed = (target: PairTarget) => {
    const id = `${target.journeyId}/${target.versionId ?? ''}`;
    if (followed.has(id)) return false;
    followed.add(id);
    return true;
  };
  let frontier: PairTarget[] = pairTargetsOf(content).filter(notYetFollowed);

  for (let level = 1; batch.length > 0; level++) {
    if (level > MAX_REFERENCE_LEVELS) {
      facts.depthLimit = MAX_REFERENCE_LEVELS;
      break;
    }
    for (const item of await getMany(batch, { attributes: METADATA_ATTRIBUTES })) {
      if (!item) continue;
      const sk = item.sk as string;
      if (ownKeys.has(sk)) own.set(sk, item);
      const link = linkBySortKey.get(sk);
      if (link) existingLinks.add(link);
      if (item.entity === journeyEntity.name) {
        journeys.set(item.id as string, {
          kind: item.kind as 'macro' | 'micro',
          archived: typeof item.archivedAt === 'string',
          publishedVersionId: (item.publishedVersionId as string | undefined) ?? null,
          publishedPairs: pairsFromAttribute(item.publishedPairs),
        });
      } else if (item.entity === journeyVersionEntity.name) {
        versions.set(versionFactsKey(item.journeyId as string, item.id as string), {
          published: typeof item.publishedAt === 'string',
          pairs: pairsFromAttribute(item.pairs),
        });
      }
    }
    frontier = frontier.flatMap((target) => followedPairs(facts, target) ?? []).filter(notYetFollowed);
    batch = keysFor(frontier).wanted;
  }
  facts.surveys = await surveysRead;
  for (const [surveyId, linked] of await linkedSurveysRead) {
    existingLinks.add(linkFactsKey('survey', surveyId));
    if (linked.archived) archivedLinks.add(linkFactsKey('survey', surveyId));
  }
  return { facts, own };
}

/** The journey and the version a save writes, read in the same first round as the content's references. */
export async function readForSave(
  workspace: string,
  journeyId: string,
  versionId: string,
  content: JourneyContent,
): Promise<{ journey: Item | undefined; version: Item | undefined; facts: ReferenceFacts }> {
  const journeyKey = journeyEntity.keys.journey(workspace, journeyId);
  const key = journeyVersionEntity.keys.version(workspace, journeyId, versionId);
  const { facts, own } = await loadReferenceFacts(workspace, content, [journeyKey, key]);
  return { journey: own.get(journeyKey.sk), version: own.get(key.sk), facts };
}
