/**
 * What `cxctl backup restore --to NAME` may do with NAME (lib/admin/restore-target.ts): only create,
 * or go on with a restore it provably started; every other existing table is refused. The restore
 * against real tables, and the tables it leaves untouched, is test/integration/operator-restore-refusals.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type ExistingTable, restoreTargetVerdict, sandboxNameProblem, tableNameProblem } from '../../lib/admin/restore-target.ts';

const SOURCE = 'CxPortalApi-Table';
const SOURCE_ARN = `arn:aws:dynamodb:eu-west-1:111122223333:table/${SOURCE}`;
const CREATED = '2026-11-26T09:00:00.000Z';
const table = (over: Partial<ExistingTable> = {}): ExistingTable => ({ createdAt: CREATED, streamEnabled: false, ...over });
const ourMark = { restoreOf: SOURCE, tableCreatedAt: CREATED, startedAt: CREATED };
const verdict = (input: Partial<Parameters<typeof restoreTargetVerdict>[0]>) =>
  restoreTargetVerdict({ source: SOURCE, target: 'restored', sourceArn: SOURCE_ARN, existing: null, mark: null, ...input });

describe('restoreTargetVerdict', () => {
  it('creates a table that does not exist', () => {
    expect(verdict({})).toEqual({ action: 'create' });
  });

  it('refuses an existing table without the mark, whatever it holds, and says it changes nothing', () => {
    const refused = verdict({ existing: table() });
    expect(refused).toMatchObject({ action: 'refuse' });
    expect(refused.action === 'refuse' && refused.reason).toMatch(
      /^Table restored already exists and is not a restore this command started .*cxctl changes nothing in it\. A restore only ever creates its table: name a new one with --to$/,
    );
  });

  it('goes on with its own unfinished restore, and refuses a finished one', () => {
    expect(verdict({ existing: table(), mark: ourMark })).toEqual({ action: 'resume' });
    const finished = verdict({ existing: table({ streamEnabled: true }), mark: ourMark });
    expect(finished.action === 'refuse' && finished.reason).toMatch(/is a restore of CxPortalApi-Table that finished .*name a new table/);
  });

  it("refuses a mark made for another table of that name (a restore of a restored table carries its source's mark)", () => {
    expect(verdict({ existing: table(), mark: { ...ourMark, tableCreatedAt: '2026-01-01T00:00:00.000Z' } })).toMatchObject({
      action: 'refuse',
    });
    const otherSource = verdict({ existing: table(), mark: { ...ourMark, restoreOf: 'another-table' } });
    expect(otherSource.action === 'refuse' && otherSource.reason).toMatch(/is a restore of another-table, not of CxPortalApi-Table/);
  });

  it('points an unmarked restore of this table (AWS, stopped before ACTIVE) to --resume with its id, and takes only that id', () => {
    const restoring = table({ tableId: 'b3a1-…', restoredFromArn: SOURCE_ARN });
    const refused = verdict({ existing: restoring });
    expect(refused.action === 'refuse' && refused.reason).toMatch(/run again with --resume b3a1-…/);
    expect(verdict({ existing: restoring, resumeTableId: 'b3a1-…' })).toEqual({ action: 'resume' });
    expect(verdict({ existing: restoring, resumeTableId: 'another-id' })).toMatchObject({ action: 'refuse' });
    // An id that matches, on a table restored from elsewhere, is still not ours.
    expect(verdict({ existing: { ...restoring, restoredFromArn: `${SOURCE_ARN}-other` }, resumeTableId: 'b3a1-…' })).toMatchObject({
      action: 'refuse',
    });
    expect(verdict({ resumeTableId: 'b3a1-…' })).toMatchObject({ action: 'refuse' });
  });
});

describe('table names', () => {
  it("takes DynamoDB's names: 3 to 255 of a-z A-Z 0-9 _ - .", () => {
    for (const name of ['cx-portal-restored', 'CX-PORTAL', 'a.b', 'abc', 'x'.repeat(255)]) expect(tableNameProblem(name)).toBeNull();
    expect(tableNameProblem('ab')).toMatch(/^Invalid table name "ab": DynamoDB takes 3 to 255 characters/);
    expect(tableNameProblem('x'.repeat(256))).toMatch(/\(it has 256\)$/);
    expect(tableNameProblem('my table/1')).toMatch(/\(it has " " "\/"\)$/);
  });

  it("refuses in the sandbox what DynamoDB Local's SQLite cannot hold: a name another table has but for case, or sqlite_…", () => {
    expect(sandboxNameProblem('CX-PORTAL', ['cx-portal', 'other'])).toMatch(
      /^DynamoDB Local cannot make a table named "CX-PORTAL" beside "cx-portal": it keeps each table in SQLite, whose table names ignore case/,
    );
    expect(sandboxNameProblem('sqlite_copy', [])).toMatch(/reserves names beginning with sqlite_/);
    expect(sandboxNameProblem('cx-portal', ['cx-portal'])).toBeNull();
    expect(sandboxNameProblem('cx-portal-restored', ['cx-portal'])).toBeNull();
  });
});
