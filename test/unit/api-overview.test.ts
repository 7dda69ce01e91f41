/**
 * The document's overview (issue 27, item 5): `info.description` and the tags' descriptions, which
 * the reference page shows first, say what every call needs, and every link in the document goes
 * where a reader of a deployed copy can follow it: to the guides where DOCS_BASE_URL says they are
 * published, or nowhere (the guide named in words), never to a repository path.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { headingAnchor } from '../../lib/platform/guides.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PUBLISHED = 'https://github.com/acme/cx-portal-api/blob/main/docs/';

type Document = { info: { description: string }; tags: { name: string; description: string }[] };

/** The document as built with DOCS_BASE_URL as given, every module loaded afresh (descriptions are registered on load). */
async function documentWith(docsBaseUrl: string | undefined): Promise<Document> {
  vi.resetModules();
  if (docsBaseUrl === undefined) delete process.env.DOCS_BASE_URL;
  else process.env.DOCS_BASE_URL = docsBaseUrl;
  const { apiDocument } = await import('../../lib/api-document.ts');
  return apiDocument() as Document;
}

afterEach(() => {
  delete process.env.DOCS_BASE_URL;
});

/** Every text of the document a reader sees as prose: descriptions and summaries (not examples). */
function prose(document: unknown): string[] {
  const texts: string[] = [];
  (function walk(value: unknown, key: string) {
    if (typeof value === 'string' && (key === 'description' || key === 'summary')) texts.push(value);
    else if (Array.isArray(value)) for (const item of value) walk(item, '');
    else if (value !== null && typeof value === 'object') {
      for (const [name, member] of Object.entries(value)) if (name !== 'examples' && name !== 'x-codeSamples') walk(member, name);
    }
  })(document, '');
  return texts;
}

/** A path of this repository as a reader would meet it in a description: a folder of the repository, a guide or source file, the README. */
const REPOSITORY_PATH = /\b(docs|lib|scripts|cli|functions|local|cdk|bench|test|clients)\/\S*|\b[\w-]+\.(md|ts|mjs|sh)\b|\bREADME\b/g;

/** The repository paths the texts mention outside absolute URLs (a published guide's URL holds `docs/…md`, rightly). */
const repositoryPaths = (texts: string[]) =>
  texts.flatMap((text) => [...text.replace(/https?:\/\/[^\s)]+/g, '').matchAll(REPOSITORY_PATH)].map((match) => match[0]));

const links = (texts: string[]) => texts.flatMap((text) => [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!));

// Each test loads the whole module graph afresh (documentWith): about 1 s on a quiet machine, past
// vitest's 5 s default on a busy 2-core one (it failed so); the time is CPU, not a wait for anything.
describe('the overview', { timeout: 30_000 }, () => {
  it('says how to authenticate, the order of checks, errors, pagination, retries, rate limits and webhook signatures', async () => {
    const { info } = await documentWith(undefined);
    for (const heading of [
      'Authentication',
      'Order of checks',
      'Errors',
      'Pagination',
      'Safe retries and concurrent changes',
      'Rate limits',
      'Webhook signatures',
    ]) {
      expect(info.description).toContain(`## ${heading}\n`);
    }
    for (const term of [
      'Authorization: Bearer',
      'X-Service-Workspace-Host',
      'x-permissions',
      'nextCursor',
      'Idempotency-Key',
      'If-Match',
      'Retry-After',
      'RateLimit-Remaining',
      'HMAC-SHA256',
      'webhook-signature',
      'Standard Webhooks',
      '`webhooks` section',
      'x-error-codes',
      'apigw-requestid',
    ]) {
      expect(info.description, term).toContain(term);
    }
  });

  it("lists every code the platform answers for any operation, and API Gateway's own answers", async () => {
    const { info } = await documentWith(undefined);
    const { platformErrorCodes } = await import('../../lib/platform/error-codes.ts');
    for (const [code, { status }] of Object.entries(platformErrorCodes)) expect(info.description).toContain(`| ${status} | \`${code}\` |`);
    expect(info.description).toContain('| 431 | `{"message":"Request Header Fields Too Large"}` |');
  });

  it('describes every tag in a sentence or more, each naming its guide', async () => {
    const { tags } = await documentWith(PUBLISHED);
    expect(tags.map((tag) => tag.name)).toEqual([
      'Introduction',
      'Ideas',
      'Journeys',
      'Surveys',
      'SOPs',
      'Webhooks',
      'Knowledge Bank',
      'People',
      'MCP',
      'Usage',
    ]);
    for (const tag of tags) {
      expect(tag.description.length, tag.name).toBeGreaterThan(100);
      expect(
        links([tag.description]).some((link) => link.startsWith(PUBLISHED)),
        tag.name,
      ).toBe(true);
    }
  });
});

describe('every link of the document', () => {
  it('points at no repository path when the guides have no published address: they are named in words', async () => {
    const texts = prose(await documentWith(undefined));
    expect(repositoryPaths(texts)).toEqual([]);
    expect(links(texts).filter((link) => !/^https:\/\//.test(link))).toEqual([]);
    expect(texts.join('\n')).toContain('the guide “Surveys”');
  });

  it('is absolute where they are published, to a guide and a heading that exist', async () => {
    const texts = prose(await documentWith(PUBLISHED.slice(0, -1)));
    expect(repositoryPaths(texts)).toEqual([]);
    const toGuides = links(texts).filter((link) => link.startsWith(PUBLISHED));
    expect(toGuides.length).toBeGreaterThan(15);
    // Besides the guides, only the standards the API follows: Standard Webhooks, the Model Context Protocol.
    const standards = /^https:\/\/(www\.standardwebhooks\.com|modelcontextprotocol\.io)/;
    expect(links(texts).filter((link) => !link.startsWith(PUBLISHED) && !standards.test(link))).toEqual([]);
    for (const link of new Set(toGuides)) {
      const [file, anchor] = link.slice(PUBLISHED.length).split('#') as [string, string | undefined];
      const guide = readFileSync(resolve(ROOT, 'docs', file), 'utf8');
      if (anchor) {
        const headings = [...guide.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)].map((match) => headingAnchor(match[1]!));
        expect(headings, link).toContain(anchor);
      }
    }
  });

  it('refuses a DOCS_BASE_URL that is not an absolute URL', async () => {
    await expect(documentWith('docs/')).rejects.toThrow(/DOCS_BASE_URL must be an absolute http\(s\) URL/);
  });
});
