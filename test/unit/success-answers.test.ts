/**
 * docs/success-answers.md is made from the route manifest (scripts/success-answers.ts): generating it
 * again changes nothing (else `npm run docs:success-answers`), and it says what the spec fixes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../../lib/manifest.ts';
import { SUCCESS_ANSWERS_FILE, successAnswersGuide } from '../../scripts/success-answers.ts';

describe('docs/success-answers.md', () => {
  const guide = successAnswersGuide();

  it('is generated from the current manifest (else run `npm run docs:success-answers` and commit)', () => {
    expect(readFileSync(SUCCESS_ANSWERS_FILE, 'utf8') === guide, 'docs/success-answers.md is stale').toBe(true);
  });

  it('has one row per operation, with the status and members the spec fixes', () => {
    const rows = guide.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toHaveLength(routes.length);
    const row = (operation: string) => rows.find((line) => line.startsWith(`| \`${operation}\` |`));
    expect(row('GET /me')).toContain('| 200 | `data` object |');
    // Issue 39: the possible duplicates beside the created idea.
    expect(row('POST /ideas')).toContain('| 201 | `data` Idea, `possibleDuplicates` SimilarIdea[] |');
    expect(row('GET /ideas')).toContain('| 200 | `data` Idea[], `pagination` Pagination |');
    expect(row('DELETE /ideas/{id}')).toContain('| 200 | none: `{"ok": true}` |');
    expect(row('POST /journeys')).toContain('| 200 | `journeyId` string, `version` JourneyVersion |');
    expect(row('POST /surveys')).toMatch(/\| 200 \| `survey` \w+, `version` \w+, `designs` \w+\[\] \|$/);
    expect(row('GET /sops')).toMatch(/\| 200 \| `sops` \w+\[\] \|$/);
    expect(row('POST /webhooks/{id}/rotate')).toMatch(/\| 200 \| `webhook` \w+ \|$/);
    expect(row('GET /docs')).toContain('a page (`text/html`), not the envelope');
  });
});
