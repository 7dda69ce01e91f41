/**
 * Why `npm ci`'s EBADENGINE warnings on Node 20 are harmless (README, "Two commands"): the project
 * runs everything on the Node it pins (the `node` devDependency), and that Node satisfies the
 * `engines.node` of every package it installs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const lock = JSON.parse(readFileSync(resolve(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } | string[] }>;
};
const pinned = lock.packages['node_modules/node']!.version!;

type Version = [number, number, number];
const parse = (v: string): Version => {
  const [major = 0, minor = 0, patch = 0] = v
    .replace(/^v/, '')
    .split('.')
    .map((n) => (/^\d+$/.test(n) ? Number(n) : 0));
  return [major, minor, patch];
};
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The range forms package.json `engines` use: `||` of space-separated `>=x`, `>x`, `<x`, `^x`, `x`, `x.x`, `*`. */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => {
        const [, op = '', target = ''] = /^(>=|<=|>|<|\^|~)?(.*)$/.exec(comparator)!;
        if (target === '*' || target === '' || target === 'x') return true;
        const t = parse(target);
        const wildcard = /[x*]/.test(target) || target.split('.').length < 3;
        if (op === '>=') return compare(v, t) >= 0;
        if (op === '>') return compare(v, t) > 0;
        if (op === '<') return compare(v, t) < 0;
        if (op === '<=') return compare(v, t) <= 0;
        if (op === '^') return v[0] === t[0] && compare(v, t) >= 0;
        return wildcard ? v[0] === t[0] : compare(v, t) === 0;
      }),
  );
}

describe('the pinned Node', () => {
  it('is the one npm scripts and npx run', () => {
    const run = spawnSync('npm', ['exec', '--', 'node', '-p', 'process.versions.node'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stdout.trim()).toBe(pinned);
    // npm starting the pinned Node takes seconds on a busy machine (8 s at a load of 30), past vitest's default 5.
  }, 60_000);

  it("satisfies every installed package's engines.node, including those that reject Node 20", () => {
    const needNewer: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!path || !range || entry.optional) continue;
      expect(satisfies(pinned, range), `${path} needs node ${range}`).toBe(true);
      if (!satisfies('20.0.0', range)) needNewer.push(path);
    }
    // The packages behind the EBADENGINE warnings the README explains.
    expect(needNewer).toContain('node_modules/@middy/core');
  });
});
