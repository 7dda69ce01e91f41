/**
 * Changes between the published definition and the one about to replace it that would split or
 * orphan answers already collected: a question removed or retyped, an option (row, column)
 * removed or given a new id, a scale changed. Wording changes and additions are not breaking.
 */
import type { ChoiceOption, Question, SurveyDefinition } from './definition.ts';

type BreakingChangeKind =
  | 'question_removed'
  | 'type_changed'
  | 'option_removed'
  | 'option_reided'
  | 'row_removed'
  | 'column_removed'
  | 'scale_changed'
  | 'input_type_changed';

export interface BreakingChange {
  kind: BreakingChangeKind;
  questionId: string;
  optionId?: string;
  detail: string;
}

function labelKey(option: ChoiceOption): string[] {
  return [option.label.en, option.label.ar].filter((label): label is string => !!label).map((label) => label.trim().toLowerCase());
}

function removedItems(
  before: readonly ChoiceOption[],
  after: readonly ChoiceOption[],
  questionId: string,
  removedKind: 'option_removed' | 'row_removed' | 'column_removed',
  noun: string,
): BreakingChange[] {
  const afterIds = new Set(after.map((item) => item.id));
  const beforeIds = new Set(before.map((item) => item.id));
  const added = after.filter((item) => !beforeIds.has(item.id));
  const changes: BreakingChange[] = [];
  for (const item of before) {
    if (afterIds.has(item.id)) continue;
    const labels = labelKey(item);
    const renamed =
      removedKind === 'option_removed' ? added.find((candidate) => labelKey(candidate).some((label) => labels.includes(label))) : undefined;
    if (renamed) {
      changes.push({
        kind: 'option_reided',
        questionId,
        optionId: item.id,
        detail: `option ${item.id} now has the id ${renamed.id}; answers already given keep ${item.id}`,
      });
    } else {
      changes.push({
        kind: removedKind,
        questionId,
        optionId: item.id,
        detail: `${noun} ${item.id} was removed; answers that chose it would no longer match the survey`,
      });
    }
  }
  return changes;
}

function scaleOf(question: Question): string | undefined {
  return question.type === 'rating' ? `${question.scale}` : undefined;
}

export function breakingChanges(published: SurveyDefinition, next: SurveyDefinition): BreakingChange[] {
  const nextById = new Map<string, Question>();
  for (const question of next.questions) if (!nextById.has(question.id)) nextById.set(question.id, question);
  const changes: BreakingChange[] = [];
  const seen = new Set<string>();
  for (const before of published.questions) {
    if (seen.has(before.id)) continue;
    seen.add(before.id);
    const after = nextById.get(before.id);
    const questionId = before.id;
    if (!after) {
      changes.push({
        kind: 'question_removed',
        questionId,
        detail: `question ${questionId} was removed; its collected answers would be orphaned`,
      });
      continue;
    }
    if (after.type !== before.type) {
      changes.push({ kind: 'type_changed', questionId, detail: `question ${questionId} changed from ${before.type} to ${after.type}` });
      continue;
    }
    if (before.type === 'openText' && after.type === 'openText' && (before.inputType ?? 'text') !== (after.inputType ?? 'text')) {
      changes.push({
        kind: 'input_type_changed',
        questionId,
        detail: `input type changed from ${before.inputType ?? 'text'} to ${after.inputType ?? 'text'}`,
      });
    }
    if (scaleOf(before) !== scaleOf(after)) {
      changes.push({ kind: 'scale_changed', questionId, detail: `scale changed from 1–${scaleOf(before)} to 1–${scaleOf(after)}` });
    }
    if ('options' in before && 'options' in after)
      changes.push(...removedItems(before.options, after.options, questionId, 'option_removed', 'option'));
    if (before.type === 'matrix' && after.type === 'matrix') {
      changes.push(...removedItems(before.rows, after.rows, questionId, 'row_removed', 'row'));
      changes.push(...removedItems(before.columns, after.columns, questionId, 'column_removed', 'column'));
    }
  }
  return changes;
}
