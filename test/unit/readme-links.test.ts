/** The README sends readers only where they can go: files of this repository and its own sections. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
// Links outside code blocks: [text](target)
const prose = readme.replace(/```[\s\S]*?```/g, '');
const targets = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchors = new Set(
  [...readme.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  ),
);

describe('README links', () => {
  it('has some', () => {
    expect(targets.length).toBeGreaterThan(3);
  });

  it.each(targets.filter((t) => !/^https?:/.test(t)))('%s is in this repository', (target) => {
    const [path, anchor] = target.split('#');
    if (path) {
      const file = resolve(ROOT, path);
      expect(file.startsWith(`${ROOT}/`), `${target} leaves the repository`).toBe(true);
      expect(existsSync(file), `${target} does not exist`).toBe(true);
    } else {
      expect(anchors, `no heading for #${anchor}`).toContain(anchor);
    }
  });
});
