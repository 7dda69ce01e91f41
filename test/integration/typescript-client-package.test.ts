/**
 * The client as an integrator gets it: `npm pack` in clients/typescript (which builds it), the
 * tarball installed into a fresh project in a temporary folder outside this repository, a typed
 * program compiled there by `tsc --strict` and run against the sandbox. A wrong call must not
 * compile, so the types are real, not `any`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '../../lib/platform/version.ts';
import { clientFor, sandbox, type TestWorkspace } from '../support/fixtures.ts';
import { ideasWorkspace } from '../support/ideas.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CLIENT = join(ROOT, 'clients/typescript');
/** The compiler an integrator would install; run from the client's workspace, on the project outside. */
const TSC = join(CLIENT, 'node_modules/.bin/tsc');

let ws: TestWorkspace;
let project: string;
let packed: { filename: string; files: { path: string }[] };

function run(command: string, args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    // From the npm cache where it can (`npm ci` fetched openapi-fetch): the registry only on a cold cache.
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_prefer_offline: 'true' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    strict: true,
    outDir: 'out',
  },
};

beforeAll(async () => {
  ws = await ideasWorkspace('client-package');
  project = mkdtempSync(join(tmpdir(), 'cx-portal-integrator-'));
  // `npm pack` runs the package's `prepack` (its build) and writes the tarball where it is told.
  const json = execFileSync('npm', ['pack', '--json', '--pack-destination', project], { cwd: CLIENT, encoding: 'utf8' });
  packed = JSON.parse(json.slice(json.indexOf('[')))[0];
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
  // From the npm cache where it can (`npm ci` fetched openapi-fetch), so the test needs the registry only on a cold cache.
  const installed = run('npm', ['install', '--prefer-offline', `./${packed.filename}`], project);
  expect(installed.status, installed.output).toBe(0);
}, 240_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the client package (clients/typescript)', () => {
  it("is an ESM package with its declarations, at the document's version, with nothing of the repository", () => {
    expect(packed.filename).toBe(`cx-portal-client-${API_VERSION}.tgz`);
    const files = packed.files.map((file) => file.path).sort();
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/schema.d.ts']),
    );
    expect(files.filter((file) => !file.startsWith('dist/') && !['README.md', 'package.json'].includes(file))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/@cx-portal/client/package.json'), 'utf8'));
    expect(manifest).toMatchObject({ type: 'module', version: API_VERSION, exports: { '.': { types: './dist/index.d.ts' } } });
  });

  it('compiles a typed call under tsc --strict outside the repository and runs it against the sandbox', async () => {
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ ...TSCONFIG, files: ['call.ts'] }));
    writeFileSync(
      join(project, 'call.ts'),
      `import { createPortalClient, type Idea, type WebhookEvent } from '@cx-portal/client';

const api = createPortalClient({ baseUrl: ${JSON.stringify(sandbox.apiUrl)}, workspaceHost: ${JSON.stringify(ws.host)}, key: ${JSON.stringify(ws.key)} });

const { data, error } = await api.POST('/ideas', { body: { title: 'Filed from an installed client', status: 'new' } });
if (error) throw new Error(\`\${error.error}: \${error.message}\`);
const idea: Idea = data.data;
const labels = await api.GET('/ideas/labels');
const refused = await api.GET('/ideas/{id}', { params: { path: { id: 'no-such-idea' } } });

/** What a receiver does with a delivery: the event's type narrows its data. */
function describeEvent(event: WebhookEvent): string {
  return event.type === 'idea.status_changed' ? \`\${event.data.ideaId}: \${event.data.previousStatus} → \${event.data.status}\` : event.type;
}
const event: WebhookEvent<'idea.status_changed'> = {
  type: 'idea.status_changed',
  timestamp: idea.createdAt,
  data: { ideaId: idea.id, workspace: 'acme', previousStatus: null, status: idea.status ?? null, statusMessage: null, statusMessageAr: null, voterCount: 0 },
};
console.log(JSON.stringify({ id: idea.id, version: idea.version, statuses: labels.data?.data.statuses, refused: refused.error?.error, event: describeEvent(event) }));
`,
    );
    const compiled = run(TSC, ['-p', '.'], project);
    expect(compiled.status, compiled.output).toBe(0);
    const ran = run(process.execPath, ['out/call.js'], project);
    expect(ran.status, ran.output).toBe(0);
    const printed = JSON.parse(ran.output);
    expect(printed).toMatchObject({
      version: 1,
      statuses: ['new', 'planned', 'done'],
      refused: 'not_found',
      event: `${printed.id}: null → new`,
    });
    const stored = await clientFor(ws).get(`/ideas/${printed.id}`);
    expect(stored.body.data).toMatchObject({ title: 'Filed from an installed client', status: 'new' });
  }, 120_000);

  it('follows docs/typescript-client.md as written, in a project made by npm init -y, and runs its example', async () => {
    const guide = readFileSync(join(ROOT, 'docs/typescript-client.md'), 'utf8');
    const section = guide.slice(guide.indexOf('## Install it in your project'), guide.indexOf('\n## ', guide.indexOf('## Install it')));
    const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, code]) => ({ lang, code: code! }));
    const [setup, example, build] = [
      blocks.find((b) => b.lang === 'sh' && b.code.includes('npm init -y'))!.code,
      blocks.find((b) => b.lang === 'ts')!.code,
      blocks.find((b) => b.lang === 'sh' && b.code.includes('node index.js'))!.code,
    ];
    // Where the guide packs to: the folder the new project is made in.
    const home = mkdtempSync(join(tmpdir(), 'cx-portal-guide-'));
    try {
      writeFileSync(join(home, packed.filename), readFileSync(join(project, packed.filename)));
      // TypeScript from what this repository installed (the client's own build compiler), not the registry.
      const typescript = 'npm install -D typescript';
      expect(setup).toContain(typescript);
      const offline = setup.replace(typescript, `npm install -D ${join(CLIENT, 'node_modules/typescript')}`);
      const made = run('bash', ['-euo', 'pipefail', '-c', offline], home);
      expect(made.status, made.output).toBe(0);
      const folder = join(home, 'my-integration');
      let program = example;
      for (const [placeholder, value] of [
        ["'https://api.portal.example.com/api/v1'", JSON.stringify(sandbox.apiUrl)],
        ["'acme.portal.example.com'", JSON.stringify(ws.host)],
        ["'cxk_…'", JSON.stringify(ws.key)],
      ] as const) {
        expect(program).toContain(placeholder);
        program = program.replace(placeholder, value);
      }
      writeFileSync(join(folder, 'index.ts'), program);
      const ran = run('bash', ['-euo', 'pipefail', '-c', build], folder);
      expect(ran.status, ran.output).toBe(0);
      const id = /^created (\S+) version 1$/m.exec(ran.output)?.[1];
      expect(id, ran.output).toBeDefined();
      expect(ran.output).toContain(`${id} Dark mode new`);
      // What the guide says happens without `npm pkg set type=module`: npm init -y makes a CommonJS project.
      expect(run('npm', ['pkg', 'delete', 'type'], folder).status).toBe(0);
      const commonJs = run('npx', ['tsc'], folder);
      expect(commonJs.status).not.toBe(0);
      expect(commonJs.output).toContain("error TS1309: The current file is a CommonJS module and cannot use 'await' at the top level.");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 240_000);

  it('does not compile a call the API would refuse: a misspelt field, a path parameter left out, a wrong event field', () => {
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ ...TSCONFIG, files: ['wrong.ts'] }));
    writeFileSync(
      join(project, 'wrong.ts'),
      `import { createPortalClient, type WebhookEvent } from '@cx-portal/client';
const api = createPortalClient({ baseUrl: 'http://127.0.0.1:1/api/v1', key: 'cxk_' });
export const misspelt = api.POST('/ideas', { body: { titel: 'Dark mode' } });
export const noId = api.GET('/ideas/{id}', {});
export const status = (event: WebhookEvent<'idea.submitted'>): string => event.data.status;
`,
    );
    const compiled = run(TSC, ['-p', '.', '--noEmit'], project);
    expect(compiled.status).not.toBe(0);
    expect(compiled.output).toMatch(/wrong\.ts\(3,\d+\): error TS2561: .*'titel' does not exist/);
    expect(compiled.output).toMatch(/wrong\.ts\(4,\d+\): error TS\d+/);
    expect(compiled.output).toMatch(/wrong\.ts\(5,\d+\): error TS2339: Property 'status' does not exist/);
  }, 60_000);
});
