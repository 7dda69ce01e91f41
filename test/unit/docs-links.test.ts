/**
 * The docs send readers only where they can go: every relative link and image of README.md and
 * docs/*.md names a file of this repository and, with `#anchor`, a heading of that file (GitHub's
 * anchors); and every guide in docs/ is in the README's map, so none is reachable only by accident.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const guides = readdirSync(resolve(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const documents = ['README.md', ...guides];

/** The text outside fenced code blocks, where `[text](target)` is a link and `# x` a heading. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/**
 * GitHub's anchors: the heading's text in lower case, everything but letters, digits, spaces,
 * hyphens and underscores dropped, spaces to hyphens; a repeated anchor gets `-1`, `-2`, …
 */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(markdown).matchAll(/^#{1,6} (.+?)#*\s*$/gm)) {
    const anchor = match[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
  }
  return anchors;
}

/** Every `[text](target)` and `![alt](target)` outside code blocks that stays in the repository. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z+.-]*:/i.test(t));
}

const links = documents.flatMap((document) =>
  relativeLinks(readFileSync(resolve(ROOT, document), 'utf8')).map((target) => ({ document, target })),
);

describe('docs links', () => {
  it('finds the guides and their links', () => {
    expect(guides.length).toBeGreaterThan(10);
    expect(links.length).toBeGreaterThan(40);
  });

  it.each(links)('$document → $target', ({ document, target }) => {
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const file = path ? resolve(ROOT, dirname(document), decodeURI(path)) : resolve(ROOT, document);
    expect(file.startsWith(`${ROOT}/`), `${target} leaves the repository`).toBe(true);
    expect(existsSync(file), `${relative(ROOT, file)} does not exist`).toBe(true);
    if (anchor !== undefined) {
      expect(file.endsWith('.md'), `#${anchor} points into a file that is not Markdown`).toBe(true);
      expect(headingAnchors(readFileSync(file, 'utf8')), `no heading #${anchor} in ${relative(ROOT, file)}`).toContain(anchor);
    }
  });

  it("lists every guide in the README's map", () => {
    const map = /^## The docs\n([\s\S]*?)^## /m.exec(readFileSync(resolve(ROOT, 'README.md'), 'utf8'))?.[1] ?? '';
    const mapped = new Set(relativeLinks(map).map((target) => target.split('#')[0]));
    for (const guide of guides) expect(mapped, `${guide} is not in the README's map`).toContain(guide);
  });

  it('computes anchors as GitHub does', () => {
    expect([...headingAnchors("# Security: IAM, proven against AWS's rules\n## Rules\n```sh\n# not a heading\n```\n## Rules\n")]).toEqual([
      'security-iam-proven-against-awss-rules',
      'rules',
      'rules-1',
    ]);
    expect([...headingAnchors('## Operator CLI: `cxctl`\n### Walkthrough: a → b\n')]).toEqual(['operator-cli-cxctl', 'walkthrough-a--b']);
  });
});
