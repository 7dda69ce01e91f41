/**
 * Each walkthrough script (docs/walkthroughs/*.sh, run by test/integration/walkthroughs.test.ts) and
 * each file it sends (docs/walkthroughs/*.json) is shown in full in one guide, which links it: what a
 * reader copies from the page is what the test ran.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const files = readdirSync(resolve(ROOT, 'docs/walkthroughs'));
const scripts = files.filter((name) => name.endsWith('.sh') && name !== 'lib.sh');
const bodies = files.filter((name) => name.endsWith('.json'));
const guides = readdirSync(resolve(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ name, text: readFileSync(resolve(ROOT, 'docs', name), 'utf8') }));
const blocks = (language: string) =>
  guides.flatMap(({ name, text }) =>
    [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => ({ name, code: m[1]! })),
  );
const shellBlocks = blocks('sh');

describe('walkthroughs in the guides', () => {
  it('finds the scripts', () => {
    expect(scripts.length).toBeGreaterThanOrEqual(7);
  });

  it.each([...scripts, ...bodies])('%s is shown verbatim in the guide that links it', (script) => {
    const code = readFileSync(resolve(ROOT, 'docs/walkthroughs', script), 'utf8');
    const showing = blocks(script.endsWith('.json') ? 'json' : 'sh')
      .filter((block) => block.code === code)
      .map((block) => block.name);
    expect(showing, `no guide shows docs/walkthroughs/${script} as it is`).toHaveLength(1);
    const guide = guides.find(({ name }) => name === showing[0])!;
    expect(guide.text).toContain(`](walkthroughs/${script})`);
  });

  it('shows no other walkthrough script in a guide', () => {
    const stale = shellBlocks.filter(
      (block) =>
        block.code.startsWith('#!/usr/bin/env bash') &&
        !scripts.some((s) => readFileSync(resolve(ROOT, 'docs/walkthroughs', s), 'utf8') === block.code),
    );
    expect(stale.map((block) => `${block.name}: ${block.code.split('\n')[1]}`)).toEqual([]);
  });
});
