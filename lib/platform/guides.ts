/**
 * A guide named in the OpenAPI document: a link to where the guides are published (config
 * `DOCS_BASE_URL`), or, unset, the guide's name in words. Never a repository path (`docs/x.md`),
 * which a reader of a deployed copy cannot open.
 */
import { config } from './config.ts';

/** GitHub's anchor of a heading, as the guides' own links use them: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/**
 * The guide `file` (e.g. `surveys.md`) by its title, at `heading` when given: a link where the
 * guides are published, else in words, `“Surveys”` or `“Webhooks”, section “Verifying a delivery”`.
 * The sentence around it says "the guide".
 */
export function guideLink(file: `${string}.md`, title: string, heading?: string): string {
  const base = config.docsBaseUrl();
  if (!base) return `“${title}”${heading ? `, section “${heading}”` : ''}`;
  return `[${title}${heading ? `, section “${heading}”` : ''}](${base}${file}${heading ? `#${headingAnchor(heading)}` : ''})`;
}
