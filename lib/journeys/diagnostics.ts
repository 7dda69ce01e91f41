/**
 * Diagnostics of a journey version's content: what is well-formed (content.ts accepted it) but
 * inconsistent. Errors block publish; warnings and infos do not. Recomputed on every save and again
 * at publish, because what the content references (other journeys, ideas, SOPs, surveys) may have changed.
 * Everything about the workspace comes in as `ReferenceFacts`, loaded by the caller, so this is a
 * pure function of its arguments.
 */

import type { SurveyQuestionFacts } from '../surveys/question-lookup.ts';
import { cellShapeTypes, type JourneyCell, type JourneyContent, type LinkKind, type RowType, splitCellKey } from './content.ts';
import { findMicroJourneyCycles, type PairTarget } from './cycles.ts';
import { diagnoseBindings, followedBindingsOf } from './metric-bindings.ts';

export type DiagnosticSeverity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  severity: DiagnosticSeverity;
  code: DiagnosticCode;
  message: string;
  /** JSON Pointer (RFC 6901) into the version's `content`. */
  path: string;
}

export const DIAGNOSTIC_CODES = {
  duplicate_stage_id: 'error',
  duplicate_row_id: 'error',
  cell_unknown_row: 'error',
  cell_unknown_stage: 'error',
  cell_type_mismatch: 'error',
  duplicate_pair: 'error',
  pair_journey_not_found: 'error',
  pair_journey_archived: 'error',
  pair_not_micro_journey: 'error',
  pair_version_not_found: 'error',
  micro_journey_cycle: 'error',
  too_many_paired_journeys: 'error',
  too_many_bound_surveys: 'error',
  metric_survey_not_found: 'error',
  metric_version_not_found: 'error',
  metric_question_not_found: 'error',
  metric_measure_mismatch: 'error',
  metric_survey_archived: 'warning',
  metric_question_unpublished: 'warning',
  metric_value_ignored: 'warning',
  missing_translation: 'warning',
  pair_pinned_to_draft: 'warning',
  micro_journey_unpublished: 'warning',
  link_not_found: 'warning',
  link_archived: 'warning',
  pairs_too_deep: 'warning',
  stage_without_cells: 'warning',
  // No longer given: every link kind is checked (survey links were not, before issue 37). A version saved
  // before keeps it in its stored diagnostics until it is saved or published again, so the code stays.
  link_not_checked: 'info',
  diagnostics_truncated: 'info',
} as const satisfies Record<string, DiagnosticSeverity>;
type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** What the workspace says about a journey some pair names (directly or further down). */
export interface JourneyFacts {
  kind: 'macro' | 'micro';
  archived: boolean;
  publishedVersionId: string | null;
  /** The pairs of its published version (what an unpinned pair follows); empty when unpublished. */
  publishedPairs: readonly PairTarget[];
}

export interface VersionFacts {
  published: boolean;
  pairs: readonly PairTarget[];
}

export interface ReferenceFacts {
  /** Journeys by id; a missing entry means no such journey in the workspace. */
  journeys: ReadonlyMap<string, JourneyFacts>;
  /** Versions by `versionFactsKey(journeyId, versionId)`; only pinned ones are needed. */
  versions: ReadonlyMap<string, VersionFacts>;
  /** `linkFactsKey(kind, id)` of every linked record that exists (in any state). */
  existingLinks: ReadonlySet<string>;
  /** `linkFactsKey(kind, id)` of the linked records that exist and are archived (surveys). */
  archivedLinks: ReadonlySet<string>;
  /** Set when the caller stopped following pairs at this many levels: deeper cycles went unchecked. */
  depthLimit?: number;
  /** Surveys bound metric cells name, by id (a missing entry: no such survey); absent: bindings are not checked. */
  surveys?: ReadonlyMap<string, SurveyQuestionFacts>;
}

/**
 * Publish keeps each paired journey's `pairedBy` set in its one transaction (two items for the
 * version and journey, one per journey newly paired and one per journey unpaired: at most 100).
 */
const MAX_PAIRED_JOURNEYS = 48;

export const versionFactsKey = (journeyId: string, versionId: string) => `${journeyId}/${versionId}`;
export const linkFactsKey = (kind: LinkKind, id: string) => `${kind}:${id}`;

export const noReferenceFacts: ReferenceFacts = {
  journeys: new Map(),
  versions: new Map(),
  existingLinks: new Set(),
  archivedLinks: new Set(),
};

/** The pairs of the version a pair target follows, from the facts (undefined: a dead end). */
export function followedPairs(facts: ReferenceFacts, target: PairTarget): readonly PairTarget[] | undefined {
  const journey = facts.journeys.get(target.journeyId);
  if (!journey) return undefined;
  if (target.versionId === undefined) return journey.publishedPairs;
  return facts.versions.get(versionFactsKey(target.journeyId, target.versionId))?.pairs;
}

/** Every pair of the content, flattened, for the reference loader and for the published pairs kept on a journey. */
export function pairTargetsOf(content: JourneyContent): PairTarget[] {
  return content.stages.flatMap((stage) =>
    stage.microJourneyPairs.map((pair) =>
      pair.versionId === undefined ? { journeyId: pair.journeyId } : { journeyId: pair.journeyId, versionId: pair.versionId },
    ),
  );
}

/** Every `links` ref of the content's cells (on rows of any type: a mis-typed cell is still read). */
export function linkRefsOf(content: JourneyContent): { kind: LinkKind; id: string }[] {
  const refs: { kind: LinkKind; id: string }[] = [];
  for (const cell of Object.values(content.cells)) {
    if ('refs' in cell) refs.push(...cell.refs);
  }
  return refs;
}

function pointer(...segments: (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/**
 * @param journeyId the journey whose version this is (null for a dry run not tied to a journey):
 *   reaching it again through pairs is a cycle.
 */
export function diagnoseContent(content: JourneyContent, facts: ReferenceFacts, journeyId: string | null): Diagnostic[] {
  const found: Diagnostic[] = [];
  const report = (code: DiagnosticCode, path: string, message: string) =>
    found.push({ severity: DIAGNOSTIC_CODES[code], code, message, path });

  const stageIds = firstOccurrences(content.stages, (id, index) =>
    report('duplicate_stage_id', pointer('stages', index, 'id'), `Stage id "${id}" is used by an earlier stage`),
  );
  const rowTypes = new Map<string, RowType>();
  content.rows.forEach((row, index) => {
    if (rowTypes.has(row.id)) report('duplicate_row_id', pointer('rows', index, 'id'), `Row id "${row.id}" is used by an earlier row`);
    else rowTypes.set(row.id, row.type);
  });

  content.stages.forEach((stage, index) => {
    checkTranslation(report, stage, 'titleEn', 'titleAr', ['stages', index]);
  });
  content.rows.forEach((row, index) => {
    checkTranslation(report, row, 'titleEn', 'titleAr', ['rows', index]);
  });

  checkPairs(content, facts, report);
  checkCycles(content, facts, journeyId, report);
  if (facts.depthLimit !== undefined) {
    report(
      'pairs_too_deep',
      pointer('stages'),
      `Pairs lead more than ${facts.depthLimit} micro journeys deep; cycles beyond that were not checked`,
    );
  }

  const stagesWithCells = new Set<string>();
  for (const [key, cell] of Object.entries(content.cells)) {
    const { rowId, stageId } = splitCellKey(key);
    const path = pointer('cells', key);
    const rowType = rowTypes.get(rowId);
    if (rowType === undefined) report('cell_unknown_row', path, `Cell "${key}" names row "${rowId}", which does not exist`);
    if (!stageIds.has(stageId)) report('cell_unknown_stage', path, `Cell "${key}" names stage "${stageId}", which does not exist`);
    if (rowType !== undefined && !cellShapeTypes(cell).includes(rowType)) {
      report(
        'cell_type_mismatch',
        path,
        `Cell "${key}" has the shape of a ${cellShapeTypes(cell).join('/')} cell, but row "${rowId}" is a ${rowType} row`,
      );
    }
    if (Object.keys(cell).length > 0) stagesWithCells.add(stageId);
    checkCellTexts(cell, key, report);
    checkLinks(cell, key, facts, report);
  }

  if (facts.surveys) diagnoseBindings(content, facts.surveys, report, pointer);

  content.stages.forEach((stage, index) => {
    if (stageIds.get(stage.id) === index && !stagesWithCells.has(stage.id)) {
      report('stage_without_cells', pointer('stages', index), `Stage "${stage.id}" has no cells yet`);
    }
  });
  return found;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((diagnostic) => diagnostic.severity === 'error');
}

/**
 * Keeps at most `max` diagnostics, errors first, so the stored item (and every response) stays
 * bounded however many cells lack a translation; a final info says how many were left out.
 */
export function capDiagnostics(diagnostics: readonly Diagnostic[], max: number): Diagnostic[] {
  if (diagnostics.length <= max) return [...diagnostics];
  const rank = { error: 0, warning: 1, info: 2 } as const;
  const kept = [...diagnostics].sort((a, b) => rank[a.severity] - rank[b.severity]).slice(0, max - 1);
  const omitted = diagnostics.length - kept.length;
  return [...kept, { severity: 'info', code: 'diagnostics_truncated', message: `${omitted} more diagnostics were left out`, path: '' }];
}

type Report = (code: DiagnosticCode, path: string, message: string) => void;

/** Ids mapped to the index of their first occurrence; later duplicates are reported. */
function firstOccurrences(items: readonly { id: string }[], onDuplicate: (id: string, index: number) => void) {
  const first = new Map<string, number>();
  items.forEach((item, index) => {
    if (first.has(item.id)) onDuplicate(item.id, index);
    else first.set(item.id, index);
  });
  return first;
}

const isPresent = (value: unknown) => typeof value === 'string' && value.trim() !== '';

function checkTranslation<K extends string>(
  report: Report,
  holder: Partial<Record<K, string | undefined>>,
  english: K,
  arabic: K,
  at: (string | number)[],
) {
  const hasEnglish = isPresent(holder[english]);
  const hasArabic = isPresent(holder[arabic]);
  if (hasEnglish && !hasArabic) report('missing_translation', pointer(...at, arabic), `${english} is given but ${arabic} is missing`);
  if (hasArabic && !hasEnglish) report('missing_translation', pointer(...at, english), `${arabic} is given but ${english} is missing`);
}

function checkCellTexts(cell: JourneyCell, key: string, report: Report) {
  if ('score' in cell) checkTranslation(report, cell, 'noteEn', 'noteAr', ['cells', key]);
  else if ('items' in cell) {
    cell.items.forEach((item, index) => {
      checkTranslation(report, item, 'textEn', 'textAr', ['cells', key, 'items', index]);
    });
  } else if ('textEn' in cell || 'textAr' in cell) {
    checkTranslation(report, cell, 'textEn', 'textAr', ['cells', key]);
  }
}

const LINK_NAMES: Record<LinkKind, string> = { idea: 'Idea', sop: 'SOP', survey: 'Survey', journey: 'Journey' };

function checkLinks(cell: JourneyCell, key: string, facts: ReferenceFacts, report: Report) {
  if (!('refs' in cell)) return;
  cell.refs.forEach((ref, index) => {
    const path = pointer('cells', key, 'refs', index);
    const link = linkFactsKey(ref.kind, ref.id);
    if (!facts.existingLinks.has(link)) report('link_not_found', path, `No ${ref.kind} "${ref.id}" exists in this workspace`);
    else if (facts.archivedLinks.has(link)) report('link_archived', path, `${LINK_NAMES[ref.kind]} "${ref.id}" is archived`);
  });
}

function checkPairs(content: JourneyContent, facts: ReferenceFacts, report: Report) {
  const distinct = new Set(content.stages.flatMap((stage) => stage.microJourneyPairs.map((pair) => pair.journeyId)));
  // Publish also keeps one binding item per survey followed by metric cells, in the same transaction.
  const followedSurveys = followedBindingsOf(content).size;
  if (followedSurveys > 0 && distinct.size + followedSurveys > MAX_PAIRED_JOURNEYS) {
    report(
      'too_many_bound_surveys',
      pointer('cells'),
      `${distinct.size} paired micro journeys and ${followedSurveys} surveys followed by metric cells; together at most ${MAX_PAIRED_JOURNEYS}`,
    );
  }
  if (distinct.size > MAX_PAIRED_JOURNEYS) {
    report(
      'too_many_paired_journeys',
      pointer('stages'),
      `${distinct.size} micro journeys are paired; a version pairs at most ${MAX_PAIRED_JOURNEYS}`,
    );
  }
  content.stages.forEach((stage, stageIndex) => {
    const seen = new Set<string>();
    stage.microJourneyPairs.forEach((pair, pairIndex) => {
      const at = ['stages', stageIndex, 'microJourneyPairs', pairIndex] as const;
      if (seen.has(pair.journeyId)) {
        report('duplicate_pair', pointer(...at, 'journeyId'), `Stage "${stage.id}" already pairs journey ${pair.journeyId}`);
        return;
      }
      seen.add(pair.journeyId);
      const journey = facts.journeys.get(pair.journeyId);
      if (!journey) {
        report('pair_journey_not_found', pointer(...at, 'journeyId'), `Journey ${pair.journeyId} does not exist`);
        return;
      }
      if (journey.archived) report('pair_journey_archived', pointer(...at, 'journeyId'), `Journey ${pair.journeyId} is archived`);
      if (journey.kind !== 'micro')
        report('pair_not_micro_journey', pointer(...at, 'journeyId'), `Journey ${pair.journeyId} is not a micro journey`);
      if (journey.publishedVersionId === null) {
        report('micro_journey_unpublished', pointer(...at, 'journeyId'), `Journey ${pair.journeyId} has never been published`);
      }
      if (pair.versionId !== undefined) {
        const version = facts.versions.get(versionFactsKey(pair.journeyId, pair.versionId));
        if (!version)
          report('pair_version_not_found', pointer(...at, 'versionId'), `Journey ${pair.journeyId} has no version ${pair.versionId}`);
        else if (!version.published) report('pair_pinned_to_draft', pointer(...at, 'versionId'), `Version ${pair.versionId} is a draft`);
      }
    });
  });
}

function checkCycles(content: JourneyContent, facts: ReferenceFacts, journeyId: string | null, report: Report) {
  const rootPairs = content.stages.flatMap((stage, stageIndex) =>
    stage.microJourneyPairs.map((pair, pairIndex) => ({
      origin: pointer('stages', stageIndex, 'microJourneyPairs', pairIndex),
      target: pair,
    })),
  );
  for (const cycle of findMicroJourneyCycles(journeyId, rootPairs, (target) => followedPairs(facts, target))) {
    report('micro_journey_cycle', cycle.origin, `Following this pair reaches a journey again: ${cycle.path.join(' → ')}`);
  }
}
