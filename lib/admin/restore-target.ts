/**
 * What `cxctl backup restore --to NAME` may do with NAME: a restore only ever creates its target.
 * An existing table is refused, whatever it holds, unless it carries the mark this command leaves in
 * a table it made (`keys.restoreMark`: the source's name and the table's creation time, so a later
 * table of the same name is not taken for it), and then only while the restore is unfinished (its
 * stream, turned on last, is still off). Pure rules over what DynamoDB described: lib/admin/restore.ts
 * reads, these decide, and unit tests hold every branch (test/unit/restore-target.test.ts).
 */

/** The mark a restore leaves in its target as soon as DynamoDB takes writes there. */
export interface RestoreMark {
  /** The table restored from. */
  restoreOf: string;
  /** The target's own CreationDateTime (ISO): binds the mark to this table, not one made later under its name. */
  tableCreatedAt: string;
  startedAt: string;
}

/** What DescribeTable says of an existing target. */
export interface ExistingTable {
  createdAt: string;
  streamEnabled: boolean;
  /** AWS only (DynamoDB Local has neither). */
  tableId?: string;
  restoredFromArn?: string;
}

export type RestoreTargetVerdict = { action: 'create' } | { action: 'resume' } | { action: 'refuse'; reason: string };

/**
 * DynamoDB's rule for a table name (CreateTable's TableName, and the developer guide's "Naming
 * rules": https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html): 3 to 255 of
 * a-z, A-Z, 0-9, `_`, `-` and `.`, case-sensitive.
 */
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

/** Null when DynamoDB takes `name` for a new table; otherwise what is wrong with it. */
export function tableNameProblem(name: string): string | null {
  if (TABLE_NAME.test(name)) return null;
  const bad = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ''))].map((c) => JSON.stringify(c)).join(' ');
  return (
    `Invalid table name "${name}": DynamoDB takes 3 to 255 characters of a-z A-Z 0-9 _ - . ` +
    (bad ? `(it has ${bad})` : `(it has ${name.length})`)
  );
}

/**
 * Names AWS takes but the sandbox's DynamoDB Local cannot, which it answers with a bare
 * InternalFailure. DynamoDB Local keeps each table as a table of one SQLite database (-sharedDb),
 * named as the DynamoDB table is, and SQLite's names ignore case: `CREATE TABLE "CX-PORTAL"` fails
 * with "table CX-PORTAL already exists" when `cx-portal` does. It also reserves names that begin
 * with `sqlite_` (https://www.sqlite.org/lang_createtable.html). `tables` lists the existing ones.
 */
export function sandboxNameProblem(name: string, tables: readonly string[]): string | null {
  if (/^sqlite_/i.test(name)) {
    return `DynamoDB Local cannot make a table named "${name}": it keeps each table in SQLite, which reserves names beginning with sqlite_ (AWS would take it). Choose another name`;
  }
  const twin = tables.find((table) => table !== name && table.toLowerCase() === name.toLowerCase());
  if (twin) {
    return (
      `DynamoDB Local cannot make a table named "${name}" beside "${twin}": it keeps each table in SQLite, whose table names ignore ` +
      `case, so to it they are one name (in AWS, where names are case-sensitive, they are two tables). Choose a name that differs from "${twin}" by more than case`
    );
  }
  return null;
}

export function restoreTargetVerdict(input: {
  source: string;
  target: string;
  sourceArn?: string;
  existing: ExistingTable | null;
  /** The mark found in the target; null when there is none or it cannot be read yet (a table still being restored). */
  mark: RestoreMark | null;
  /** `--resume TABLE_ID`: the operator vouches for a restore this command started but could not mark yet. */
  resumeTableId?: string;
}): RestoreTargetVerdict {
  const { source, target, existing, mark } = input;
  if (!existing) {
    return input.resumeTableId
      ? { action: 'refuse', reason: `--resume ${input.resumeTableId}: there is no table ${target} to resume` }
      : { action: 'create' };
  }
  const untouched = 'cxctl changes nothing in it';
  if (mark && mark.tableCreatedAt === existing.createdAt) {
    if (mark.restoreOf !== source) {
      return {
        action: 'refuse',
        reason: `Table ${target} is a restore of ${mark.restoreOf}, not of ${source}: ${untouched}. Name a new table with --to`,
      };
    }
    if (existing.streamEnabled) {
      return {
        action: 'refuse',
        reason:
          `Table ${target} is a restore of ${source} that finished (started ${mark.startedAt}; its stream is on): ${untouched}. ` +
          'To restore again, name a new table with --to',
      };
    }
    return { action: 'resume' };
  }
  if (input.resumeTableId !== undefined) {
    if (existing.tableId !== input.resumeTableId) {
      return {
        action: 'refuse',
        reason: `--resume ${input.resumeTableId} is not the id of table ${target} (${existing.tableId ?? 'none'}): ${untouched}`,
      };
    }
    if (!input.sourceArn || existing.restoredFromArn !== input.sourceArn) {
      return {
        action: 'refuse',
        reason: `Table ${target} is not a point-in-time restore of ${source} (DynamoDB names its source ${existing.restoredFromArn ?? 'nowhere'}): ${untouched}`,
      };
    }
    return { action: 'resume' };
  }
  const restoredHere = input.sourceArn !== undefined && existing.restoredFromArn === input.sourceArn;
  return {
    action: 'refuse',
    reason:
      `Table ${target} already exists and is not a restore this command started (it holds no restore mark of this table): ${untouched}. ` +
      'A restore only ever creates its table: name a new one with --to' +
      (restoredHere
        ? `. If it is the restore you started from ${source} and cxctl stopped before it could mark it (a table being restored ` +
          `takes no writes until it is ACTIVE), run again with --resume ${existing.tableId} (the id cxctl printed when it started)`
        : ''),
  };
}
