/**
 * The release gate (lib/platform/data/release-gate.ts): which required migrations a table's records
 * leave unfinished, the one refusal `cdk deploy` and `npm start` both give, and that every migration it
 * requires is one `cxctl migrate` runs, under the same id and title.
 */
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../lib/admin/migrations/index.ts';
import { REQUIRED_MIGRATIONS, releaseGateRefusal, unfinishedMigrations } from '../../lib/platform/data/release-gate.ts';

const required = [
  { id: '002-a', title: 'A' },
  { id: '003-b', title: 'B' },
];

describe('the release gate', () => {
  it('requires only migrations cxctl migrate runs, by the same id and title, in the order it runs them', () => {
    const registered = MIGRATIONS.map(({ id, title }) => ({ id, title }));
    for (const migration of REQUIRED_MIGRATIONS) expect(registered).toContainEqual(migration);
    const order = REQUIRED_MIGRATIONS.map((migration) => registered.findIndex((r) => r.id === migration.id));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(REQUIRED_MIGRATIONS.map((m) => m.id)).toContain('002-survey-response-shards');
  });

  it('names the required migrations a table has not finished: absent, or started and not finished', () => {
    expect(unfinishedMigrations([], required)).toEqual(['002-a', '003-b']);
    expect(unfinishedMigrations([{ id: '002-a', finishedAt: '2026-01-01T00:00:00Z' }, { id: '003-b' }], required)).toEqual(['003-b']);
    expect(
      unfinishedMigrations(
        [
          { id: '001-x', finishedAt: 't' },
          { id: '002-a', finishedAt: 't' },
          { id: '003-b', finishedAt: 't' },
        ],
        required,
      ),
    ).toEqual([]);
  });

  it('says which migration, the command that finishes it, and what happens then', () => {
    const refusal = releaseGateRefusal('cx-portal', ['002-survey-response-shards'], 'npx cxctl migrate', 'deploy again');
    expect(refusal).toBe(
      'Table cx-portal has not finished layout migration 002-survey-response-shards, which this release requires: it no longer ' +
        'reads the layout from before. Run `npx cxctl migrate` (it resumes where it stopped), then deploy again. ' +
        'docs/operating.md ("Upgrading") says which releases may be skipped.',
    );
    expect(releaseGateRefusal('t', ['002-a', '003-b'], 'c', 'd')).toContain('layout migrations 002-a, 003-b');
  });
});
