/**
 * What the summary needs to know of a version's questions (type, scale, option ids), taken from its
 * definition once and stored beside the counters in every day bucket, so reading a summary never
 * reads a version. Published versions never change, so the catalog of a version never does either.
 */
import type { Question, SurveyDefinition } from '../engine/definition.ts';

export type QuestionType = Question['type'];

export interface CatalogQuestion {
  type: QuestionType;
  /** Position in the definition (a stored map keeps no order). */
  position: number;
  /** Numeric answers (nps, rating, csat, ces, openText with inputType number) are counted by value. */
  numeric: boolean;
  /** The range of a scale question. */
  scale?: { min: number; max: number };
  /** Option ids of a single or multiple choice question, in the definition's order. */
  options?: string[];
}

/** Question id → what the summary counts of it, in the definition's order. */
export type Catalog = Record<string, CatalogQuestion>;

function scaleOf(question: Question): { min: number; max: number } | undefined {
  switch (question.type) {
    case 'nps':
      return { min: 0, max: 10 };
    case 'rating':
      return { min: 1, max: question.scale };
    case 'csat':
      return { min: 1, max: 5 };
    case 'ces':
      return { min: 1, max: 7 };
    default:
      return undefined;
  }
}

export function catalogOf(definition: SurveyDefinition): Catalog {
  const catalog: Catalog = {};
  for (const [position, question] of definition.questions.entries()) {
    // The first of a repeated id wins, as in the engine (lib/surveys/engine/model.ts).
    if (catalog[question.id]) continue;
    const scale = scaleOf(question);
    const numeric = scale !== undefined || (question.type === 'openText' && question.inputType === 'number');
    const entry: CatalogQuestion = { type: question.type, position, numeric };
    if (scale) entry.scale = scale;
    if (question.type === 'singleChoice' || question.type === 'multipleChoice') {
      entry.options = [...new Set(question.options.map((option) => option.id))];
    }
    catalog[question.id] = entry;
  }
  return catalog;
}
