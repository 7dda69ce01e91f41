/**
 * docs/errors.md is generated from the error catalog and the route manifest (lib/errors-reference.ts),
 * as the OpenAPI document is, so it cannot fall behind the codes the API answers (issue 27, item 4).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../../lib/error-codes.ts';
import { errorsReference } from '../../lib/errors-reference.ts';
import { GATEWAY_ANSWERS } from '../../lib/platform/gateway-answers.ts';

const committed = readFileSync(resolve(import.meta.dirname, '../../docs/errors.md'), 'utf8');

/** The codes the guide lists in each status's table, by status. */
function codesByStatus(markdown: string): Map<number, string[]> {
  const tables = new Map<number, string[]>();
  let status = 0;
  for (const line of markdown.split('\n')) {
    const heading = /^## (\d{3}) /.exec(line);
    if (heading) status = Number(heading[1]);
    const row = /^\| `([a-z_]+)` \|/.exec(line);
    if (row && status) tables.set(status, [...(tables.get(status) ?? []), row[1]!]);
  }
  return tables;
}

describe('docs/errors.md', () => {
  it('lists every code of the catalog under its status, the five it once lacked among them', () => {
    const listed = codesByStatus(committed);
    for (const [code, { status }] of Object.entries(errorCatalog)) {
      expect(listed.get(status) ?? [], `${code} under ${status}`).toContain(code);
    }
    for (const code of ['invalid_answers', 'respondent_not_targeted', 'response_finished', 'response_too_large', 'survey_not_collecting']) {
      expect([...listed.values()].flat()).toContain(code);
    }
    expect([...listed.values()].flat().sort()).toEqual(Object.keys(errorCatalog).sort());
  });

  it("lists API Gateway's own answers, the 431 for headers past 10,240 bytes among them", () => {
    for (const answer of Object.values(GATEWAY_ANSWERS))
      expect(committed).toContain(`| ${answer.status} | \`{"message":"${answer.message}"}\``);
    expect(committed).toContain('10,240 bytes');
  });

  it('is what `npm run docs:errors` writes now', () => {
    expect(committed, 'docs/errors.md differs from the catalog and the manifest: run `npm run docs:errors`').toBe(errorsReference());
  });
});
