/**
 * `npm run bench:capacity`: the capacity model (issue 32). Runs every workload against a sandbox,
 * prices every DynamoDB request the functions sent by AWS's rules, and prints per workload its
 * ceiling per second, the bottleneck (the single item or key range that reaches a partition's limit
 * first) and the units per call. Apart from `npm run bench`, whose scenarios time requests: this one
 * counts units and never times anything, so its figures are the same on any machine.
 *
 *   npm run bench:capacity                      every workload, the table and the verdicts
 *   npm run bench:capacity -- survey-submits    only the workloads named
 *   npm run bench:capacity -- --json out.json   also the results as JSON (the target test reads them)
 *   npm run bench:capacity -- --write-docs      also rewrite the generated table in docs/costs.md
 *
 * Exits non-zero when a workload misses its target, naming the bottleneck.
 */
import { writeFileSync } from 'node:fs';
import { bucketName } from './capacity-model.ts';
import { runCapacityModel } from './capacity-run.ts';
import { capacityTable, writeCapacityTable } from './capacity-table.ts';
import { WORKLOADS } from './capacity-workloads-all.ts';

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
const writeDocs = args.includes('--write-docs');
const named = args.filter((arg, i) => !arg.startsWith('--') && (jsonAt < 0 || i !== jsonAt + 1));
const unknown = named.filter((id) => !WORKLOADS.some((workload) => workload.id === id));
if (unknown.length > 0) {
  console.error(`Unknown workload ${unknown.join(', ')}; the workloads are ${WORKLOADS.map((w) => w.id).join(', ')}`);
  process.exit(2);
}
const chosen = named.length > 0 ? WORKLOADS.filter((workload) => named.includes(workload.id)) : WORKLOADS;

const results = await runCapacityModel(chosen, (line) => console.error(line));
const units = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

for (const result of results) {
  const { model } = result;
  console.log(`\n## ${result.title} (${result.id})\n`);
  console.log(
    `One call: ${result.call}. ${model.calls} calls; per call ${units(model.readPerCall)} read and ${units(model.writePerCall)} write units.`,
  );
  if (result.stream.recordsPerCall > 0) {
    console.log(
      `Stream: ${units(result.stream.recordsPerCall)} records per call, fed in batches of ${result.stream.batchSize} (AWS's at ${result.target.toLocaleString('en')}/s).`,
    );
  }
  console.log('\n| where the units land | per call: read | write | ceiling per second |\n| --- | ---: | ---: | ---: |');
  for (const bucket of model.buckets.slice(0, 6)) {
    console.log(
      `| \`${bucketName(bucket)}\` | ${units(bucket.readPerCall)} | ${units(bucket.writePerCall)} | ${Math.floor(bucket.ceiling).toLocaleString('en')} |`,
    );
  }
  console.log(
    `\nCeiling ${Math.floor(model.ceiling).toLocaleString('en')}/s, target ${result.target.toLocaleString('en')}/s: ${result.failure ?? 'met'}`,
  );
}
console.log(`\n${capacityTable(results)}`);
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(results, null, 2));
if (writeDocs) console.error(`Rewrote ${writeCapacityTable(results)}`);
const failures = results.filter((result) => result.failure);
for (const result of failures) console.error(`✖ ${result.failure}`);
process.exit(failures.length > 0 ? 1 : 0);
