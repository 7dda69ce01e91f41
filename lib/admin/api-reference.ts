/**
 * Renders the API reference page: the OpenAPI document, as one static, self-contained HTML file,
 * by Redocly CLI's `build-docs` (Redoc). Used by `npm run docs`, the sandbox at start, CDK when it
 * bundles the GET /docs function, and the tests. Redocly CLI is a development dependency: the page
 * is rendered at build time, never in a Lambda function.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { apiDocument } from '../api-document.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Redoc's sidebar footer loads Redocly's logo from its CDN (`https://cdn.redoc.ly/redoc/logo-mini*.svg`),
 * the one thing the inlined page still fetched: offline it was a broken image. An empty picture in a
 * data URI takes its place, so the page fetches nothing (test/unit/api-reference-chromium.test.ts).
 */
const REDOCLY_CDN_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const EMPTY_PICTURE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

export async function renderApiReference(output: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'api-reference-'));
  try {
    const spec = join(dir, 'openapi.json');
    await writeFile(spec, JSON.stringify(apiDocument()));
    await promisify(execFile)(
      join(ROOT, 'node_modules/.bin/redocly'),
      [
        'build-docs',
        spec,
        '--output',
        output,
        '--title',
        'Customer Experience Portal API reference',
        // Redoc's script inside the page, not from a CDN: it works offline and from a Lambda response alike.
        '--inlineBundle',
        // Hash routes (#/ideas/listideas): the page lives at /api/v1/docs, so path routes would leave it.
        '--openapi.routingStrategy=hash',
        // No call-home from a reader's browser.
        '--openapi.disableTelemetry=true',
        '--lint-config',
        'off',
      ],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
    const page = await readFile(output, 'utf8');
    await writeFile(output, page.replace(REDOCLY_CDN_LOGO, EMPTY_PICTURE));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
