/**
 * An answer the docs show after a `curl` (a `# {…}` comment, the README's first request and
 * docs/deploying.md's runbook among them) is the answer the API gives: the one recorded from the real
 * sandbox (lib/api-examples.json, `npm run docs:examples`), with the recording's workspace `acme`
 * read as the one the doc calls. A change of what an operation answers (as `/me` gained
 * `permissions` and `modules`) fails here until the docs show it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import examples from '../../lib/api-examples.json' with { type: 'json' };
import { routes } from '../../lib/manifest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const RECORDED_WORKSPACE = 'acme';

interface DocumentedAnswer {
  file: string;
  line: number;
  method: string;
  path: string;
  workspace: string;
  body: unknown;
}

/** Every `curl …/api/v1/<path>` in a code block of `text` followed by a `# {…}` answer, that answer parsed. */
function documentedAnswers(file: string, text: string): DocumentedAnswer[] {
  const lines = text.split('\n');
  const answers: DocumentedAnswer[] = [];
  for (let i = 0; i < lines.length; i++) {
    const request = /\bcurl\b.*?https?:\/\/[^/\s]+\/api\/v1(\/[^\s"'?]*)/.exec(lines[i]!);
    if (!request) continue;
    // The command, with its continuation lines, then the answer's comment lines until they parse.
    let end = i;
    while (lines[end]!.trimEnd().endsWith('\\')) end++;
    const command = lines.slice(i, end + 1).join(' ');
    let next = end + 1;
    while (/\bcurl\b/.test(lines[next] ?? '') && !(lines[next] ?? '').startsWith('#')) {
      // A second request sharing the answer (docs/deploying.md: the same call on two hosts).
      while (lines[next]!.trimEnd().endsWith('\\')) next++;
      next++;
    }
    if (!(lines[next] ?? '').startsWith('# {')) continue;
    let json = '';
    let body: unknown;
    for (let j = next; j < lines.length && lines[j]!.startsWith('#'); j++) {
      json += lines[j]!.slice(1);
      try {
        body = JSON.parse(json);
        break;
      } catch {}
    }
    const host = /X-Service-Workspace-Host: ([^.'"\s]+)\./.exec(command)?.[1] ?? /https?:\/\/([^.]+)\./.exec(command)?.[1];
    answers.push({
      file,
      line: i + 1,
      method: /-X (\w+)/.exec(command)?.[1] ?? 'GET',
      path: request[1]!,
      workspace: host!,
      body,
    });
  }
  return answers;
}

const files = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const answers = files.flatMap((file) => documentedAnswers(file, readFileSync(join(ROOT, file), 'utf8')));

/** The recorded answer of the operation `method path` names, with the recording's workspace read as `workspace`. */
function recorded(method: string, path: string, workspace: string): unknown {
  const route = routes.find((r) => r.method === method && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
  const example = route && (examples as Record<string, { response: { body: unknown } }>)[route.operationId];
  if (!example) return undefined;
  return JSON.parse(JSON.stringify(example.response.body).replaceAll(`"${RECORDED_WORKSPACE}"`, JSON.stringify(workspace)));
}

describe('the answers the docs show', () => {
  it("include the README's first request and the deployment runbook's", () => {
    expect(answers.map((a) => `${a.file} ${a.method} ${a.path}`)).toEqual(
      expect.arrayContaining(['README.md GET /me', 'docs/deploying.md GET /me']),
    );
  });

  it.each(answers.map((a) => [`${a.file}:${a.line} ${a.method} ${a.path}`, a] as const))('%s is the recorded answer', (_, answer) => {
    const expected = recorded(answer.method, answer.path, answer.workspace);
    expect(expected, 'an operation with a recorded example').toBeDefined();
    expect(answer.body, `${answer.file}:${answer.line}: show the answer recorded in lib/api-examples.json`).toEqual(expected);
  });
});
