/**
 * The capacity model's targets (issue 32, docs/costs.md "Scale"), held. `npm run bench:capacity` runs
 * every workload against a sandbox of its own (a child process: the model taps the handlers' DynamoDB
 * client and holds the stream consumer, which the shared sandbox must not have), and this test reads
 * its results: a workload under its target fails here naming its bottleneck, the item or the key
 * range that reaches a partition's limit first. And docs/costs.md must carry the table the model
 * generates from these results, as the other generated docs are held to their sources.
 *
 * The model counts units per call, never time, so a loaded machine makes it slower, not different.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorkloadResult } from '../../bench/capacity-run.ts';
import { capacityRows, capacityTable, documentedCapacityTable } from '../../bench/capacity-table.ts';
import { WORKLOADS } from '../../bench/capacity-workloads-all.ts';

const ROOT = resolve(import.meta.dirname, '../..');
let results: WorkloadResult[] = [];

beforeAll(() => {
  const json = join(mkdtempSync(join(tmpdir(), 'capacity-')), 'results.json');
  const run = spawnSync('npx', ['tsx', 'bench/capacity.ts', '--json', json], {
    cwd: ROOT,
    encoding: 'utf8',
    // Its own sandbox on free ports; nothing of this test run's sandbox.
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    maxBuffer: 64 * 1024 * 1024,
  });
  // It exits 1 when a workload misses its target: the results say which, below.
  if (run.status !== 0 && run.status !== 1) throw new Error(`npm run bench:capacity failed (${run.status}):\n${run.stderr.slice(-4000)}`);
  results = JSON.parse(readFileSync(json, 'utf8')) as WorkloadResult[];
}, 45 * 60_000);

describe('the capacity model (npm run bench:capacity)', () => {
  it('runs every workload', () => {
    expect(results.map((result) => result.id)).toEqual(WORKLOADS.map((workload) => workload.id));
  });

  it.each(WORKLOADS.map((workload) => [workload.id]))('%s meets its target', (id) => {
    const result = results.find((r) => r.id === id);
    expect(result, `no result for ${id}`).toBeDefined();
    // The message names the bottleneck: `<workload>: 125/s is below its target 5,000/s; the bottleneck is key range …`.
    expect(result?.failure ?? null).toBeNull();
  });

  it('is what docs/costs.md shows (npm run bench:capacity -- --write-docs)', () => {
    const documented = capacityRows(documentedCapacityTable());
    const modelled = capacityRows(capacityTable(results));
    // The same workloads, targets, verdicts and bottlenecks; figures within 5 %: a call the sandbox had
    // to retry on an overloaded machine (a timed-out batch) writes a little more than AWS would.
    const close = (a: number, b: number) => a === b || Math.abs(a - b) <= 0.05 * Math.max(Math.abs(a), Math.abs(b));
    expect(documented.map(({ workload, target, missed, bottleneck }) => ({ workload, target, missed, bottleneck }))).toEqual(
      modelled.map(({ workload, target, missed, bottleneck }) => ({ workload, target, missed, bottleneck })),
    );
    for (const [i, row] of documented.entries()) {
      const model = modelled[i] as (typeof modelled)[number];
      expect(close(row.ceiling, model.ceiling), `${row.workload}: ceiling ${row.ceiling} in docs/costs.md, ${model.ceiling} now`).toBe(
        true,
      );
      expect(close(row.units[0], model.units[0]) && close(row.units[1], model.units[1]), `${row.workload}: units per call`).toBe(true);
    }
  });
});
