/**
 * The columns of an export and each response's cells, pure. Columns are the questions of every
 * version in the export (newest version's order first, then questions only older versions had, so
 * answers to a removed question keep their column); a matrix gives one column per row. A cell tells
 * a question the respondent was never shown (`not shown`) from one shown and left empty (``).
 * Labels: option, row and column ids as stored (`ids`), or their text in English or Arabic (falling
 * back to the id where a label lacks that language).
 */
import type { Question, ShownText, SurveyDefinition } from '../engine/definition.ts';

export type LabelLanguage = 'ids' | 'en' | 'ar';

export const NOT_SHOWN = 'not shown';

export interface Column {
  /** The header: the question id, `<questionId>.<rowId>` for a matrix row. */
  header: string;
  questionId: string;
  rowId?: string;
  question: Question;
}

/** The response attributes the fixed columns after `responseId` hold, in column order. */
const RESPONSE_FIELDS = ['versionId', 'status', 'language', 'createdAt', 'finishedAt', 'secondsToFinish', 'ending'] as const;

/** The fixed columns before the questions (`responseId` holds the response's `id`). */
const RESPONSE_COLUMNS = ['responseId', ...RESPONSE_FIELDS] as const;

/** The header row: the fixed columns, then the questions'. */
export function headersOf(columns: readonly Column[]): string[] {
  return [...RESPONSE_COLUMNS, ...columns.map((column) => column.header)];
}

/** Definitions newest version first. */
export function columnsOf(definitions: readonly SurveyDefinition[]): Column[] {
  const columns: Column[] = [];
  const seen = new Set<string>();
  for (const definition of definitions) {
    for (const question of definition.questions) {
      if (question.type === 'statement') continue;
      if (question.type === 'matrix') {
        for (const row of question.rows) {
          const header = `${question.id}.${row.id}`;
          if (seen.has(header)) continue;
          seen.add(header);
          columns.push({ header, questionId: question.id, rowId: row.id, question });
        }
        continue;
      }
      if (seen.has(question.id)) continue;
      seen.add(question.id);
      columns.push({ header: question.id, questionId: question.id, question });
    }
  }
  return columns;
}

function labelOf(items: readonly { id: string; label: ShownText }[] | undefined, id: string, language: LabelLanguage): string {
  if (language === 'ids') return id;
  const item = items?.find((candidate) => candidate.id === id);
  return item?.label[language] ?? id;
}

function optionsOf(question: Question): readonly { id: string; label: ShownText }[] | undefined {
  return 'options' in question ? question.options : undefined;
}

/** One answer as text; multiple choice and ranking are their options joined with `; ` in the order given. */
function cellOf(column: Column, answer: unknown, shown: boolean, language: LabelLanguage): string {
  if (!shown) return NOT_SHOWN;
  if (answer === undefined || answer === null) return '';
  const { question } = column;
  if (column.rowId !== undefined && question.type === 'matrix') {
    const columnId = (answer as Record<string, unknown>)[column.rowId];
    return typeof columnId === 'string' ? labelOf(question.columns, columnId, language) : '';
  }
  if (Array.isArray(answer)) return answer.map((id) => labelOf(optionsOf(question), String(id), language)).join('; ');
  if (typeof answer === 'string' && optionsOf(question)) return labelOf(optionsOf(question), answer, language);
  if (typeof answer === 'object') return JSON.stringify(answer);
  return String(answer);
}

/** The parts of a stored response (SURVEY-RESPONSES-CONTRACT §1) an export writes: never the respondent. */
export interface ExportedResponse {
  id: string;
  versionId: string;
  status: string;
  language?: string;
  createdAt: string;
  finishedAt?: string;
  secondsToFinish?: number;
  ending?: string;
  answers: Record<string, unknown>;
  path: string[];
}

/** The attributes an export reads of each stored response: an `ExportedResponse`'s, nothing else. */
export const EXPORTED_ATTRIBUTES = ['id', ...RESPONSE_FIELDS, 'answers', 'path'] as const satisfies readonly (keyof ExportedResponse)[];

export function rowOf(response: ExportedResponse, columns: readonly Column[], language: LabelLanguage): string[] {
  const shown = new Set(response.path);
  return [
    response.id,
    response.versionId,
    response.status,
    response.language ?? '',
    response.createdAt,
    response.finishedAt ?? '',
    response.secondsToFinish === undefined ? '' : String(response.secondsToFinish),
    response.ending ?? '',
    ...columns.map((column) => cellOf(column, response.answers[column.questionId], shown.has(column.questionId), language)),
  ];
}

/** A JSON Lines record: the same cells by header, so both formats carry the same data. */
export function jsonRecordOf(response: ExportedResponse, columns: readonly Column[], language: LabelLanguage): Record<string, string> {
  const cells = rowOf(response, columns, language);
  const headers = headersOf(columns);
  return Object.fromEntries(headers.map((header, index) => [header, cells[index] ?? '']));
}
