/** cxctl as an operator runs it, against the sandbox's DynamoDB, with the API checking its results. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { findWorkspace } from '../../lib/admin/workspaces.ts';
import { routes } from '../../lib/manifest.ts';
import { PERMISSIONS } from '../../lib/platform/permissions.ts';
import { adminStore, call, expectErrorEnvelope, sandbox, uniqueSlug } from '../support/fixtures.ts';

const run = promisify(execFile);

async function cxctl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/cxctl.mjs', ...args, '--endpoint', sandbox.dynamodbEndpoint], {
      env: { ...process.env, TABLE_NAME: sandbox.tableName, WORKSPACE_DOMAIN: 'localhost' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function cxctlJson(...args: string[]) {
  const result = await cxctl(...args, '--json');
  if (result.code !== 0) throw new Error(`cxctl ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

describe('cxctl', () => {
  it('creates a workspace and a key that the API accepts; revoke and rotate take effect at once', async () => {
    const slug = uniqueSlug('cli');
    const ws = await cxctlJson('workspace', 'create', slug, '--name', 'CLI test');
    expect(ws).toMatchObject({ slug, host: `${slug}.localhost`, name: 'CLI test', status: 'active' });

    const created = await cxctlJson(
      'key',
      'create',
      '--workspace',
      slug,
      '--all',
      '--expires-in',
      '90d',
      '--rate-limit',
      '120',
      '--name',
      'ci',
    );
    expect(created.key).toMatch(/^cxk_/);
    expect(created.scopes).toContain('sops:approve');
    expect(Date.parse(created.expiresAt) - Date.now()).toBeGreaterThan(89 * 86400 * 1000);
    const me = await call('GET', '/me', { host: ws.host, key: created.key });
    expect(me.status).toBe(200);
    expect(me.headers.get('ratelimit-limit')).toBe('120');

    const listed = await cxctlJson('key', 'list', '--workspace', slug);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: created.id, state: 'active' });
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(JSON.stringify(listed)).not.toContain('secretHash');

    const rotated = await cxctlJson('key', 'rotate', created.id);
    expect(rotated.id).toBe(created.id);
    expectErrorEnvelope(await call('GET', '/me', { host: ws.host, key: created.key }), 401, 'invalid_key');
    expect((await call('GET', '/me', { host: ws.host, key: rotated.key })).status).toBe(200);

    await cxctlJson('key', 'revoke', created.id);
    expectErrorEnvelope(await call('GET', '/me', { host: ws.host, key: rotated.key }), 401, 'key_revoked');
  });

  it('creates read-only keys by default', async () => {
    const slug = uniqueSlug('cli');
    await cxctlJson('workspace', 'create', slug);
    const key = await cxctlJson('key', 'create', '--workspace', slug);
    expect(key.scopes.every((s: string) => s.endsWith(':read'))).toBe(true);
    expect(key.scopes).toContain('ideas:read');
    expect(key.expiresAt).toBeNull();
  });

  it('suspends and resumes a workspace, and switches modules', async () => {
    const slug = uniqueSlug('cli');
    await cxctlJson('workspace', 'create', slug);
    const key = await cxctlJson('key', 'create', '--workspace', slug);
    await cxctlJson('workspace', 'suspend', slug);
    expectErrorEnvelope(await call('GET', '/me', { host: slug, key: key.key }), 403, 'workspace_suspended');
    await cxctlJson('workspace', 'resume', slug);
    expect((await call('GET', '/me', { host: slug, key: key.key })).status).toBe(200);

    const modules = await cxctlJson('workspace', 'modules', slug, '--disable', 'ideas,sops');
    expect(modules.disabledModules).toEqual(['ideas', 'sops']);
    const after = await cxctlJson('workspace', 'modules', slug, '--enable', 'ideas');
    expect(after.disabledModules).toEqual(['sops']);
  });

  it('sets idea labels', async () => {
    const slug = uniqueSlug('cli');
    await cxctlJson('workspace', 'create', slug);
    expect(await cxctlJson('labels', 'set', slug, '--statuses', 'new,planned', '--modules', 'billing')).toEqual({
      statuses: ['new', 'planned'],
      modules: ['billing'],
    });
    const ws = await findWorkspace(adminStore(), slug);
    expect(ws?.ideaLabels).toEqual({ statuses: ['new', 'planned'], modules: ['billing'] });
  });

  it('sets idea labels as identifiers: normalised to NFKC, and refused with invisible, bidi-control or look-alike characters', async () => {
    const slug = uniqueSlug('cli');
    await cxctlJson('workspace', 'create', slug);
    for (const [list, reason] of [
      ['new,new\u3164', /Invalid status "new<U\+3164>": it contains U\+3164, an invisible or control character/],
      ['\u202Eweb', /Invalid status "<U\+202E>web": it contains U\+202E, a bidirectional control character/],
      ['passw\u043Erd', /mixes the letters of several scripts/],
      ['new,\uFF4E\uFF45\uFF57', /Duplicate status/],
    ] as const) {
      const refused = await cxctl('labels', 'set', slug, '--statuses', list);
      expect(refused.code, refused.stdout).not.toBe(0);
      expect(refused.stderr).toMatch(reason);
    }
    expect((await findWorkspace(adminStore(), slug))?.ideaLabels.statuses).toEqual([]);
    expect(await cxctlJson('labels', 'set', slug, '--statuses', '\uFF4E\uFF45\uFF57,In review')).toMatchObject({
      statuses: ['new', 'In review'],
    });
  });

  it('imports the SOP directory with ids that survive a re-import, deactivating entries no longer listed', async () => {
    const slug = uniqueSlug('cli');
    await cxctlJson('workspace', 'create', slug);
    const dir = mkdtempSync(join(tmpdir(), 'cxctl-'));
    const file = join(dir, 'directory.json');
    writeFileSync(
      file,
      JSON.stringify({
        people: [
          { name: 'Ada', email: 'ada@example.com', active: true },
          { name: 'Bob', email: 'bob@example.com', active: true, sourceUserId: '0b7e6b3e-9a43-4c5e-8f6f-1f2a3b4c5d6e' },
        ],
        teams: [{ name: 'Support', active: true }],
      }),
    );
    expect(await cxctlJson('directory', 'import', slug, '--file', file)).toEqual({ people: 2, teams: 1, deactivated: 0 });
    writeFileSync(file, JSON.stringify({ people: [{ name: 'Ada Lovelace', email: 'ada@example.com', active: true }], teams: [] }));
    expect(await cxctlJson('directory', 'import', slug, '--file', file)).toEqual({ people: 1, teams: 0, deactivated: 2 });
  });

  it('lists every permission with its module, one a line, covering every route; --help and docs/cxctl.md name them all', async () => {
    const { code, stdout } = await cxctl('permissions');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual([...PERMISSIONS]);
    // Columns are padded to the longest permission.
    expect(lines).toContainEqual(expect.stringMatching(/^knowledge-bank:delete +module knowledge-bank$/));
    expect(lines).toContainEqual(expect.stringMatching(/^survey-responses:read +module surveys$/));
    const listed: { permission: string; module: string }[] = await cxctlJson('permissions');
    const moduleOf = new Map(listed.map(({ permission, module }) => [permission, module]));
    // Every route's permissions are listed, and one of them is of the route's own module (webhook
    // writes also need ideas:read, for the idea data a webhook carries). A route of no module
    // (POST /people/erase) needs the permissions of each module it erases in.
    for (const route of routes) {
      for (const permission of route.permissions) expect(moduleOf.has(permission), `${route.operationId}: ${permission}`).toBe(true);
      if (route.permissions.length > 0 && route.module !== null) {
        expect(
          route.permissions.map((p) => moduleOf.get(p)),
          route.operationId,
        ).toContain(route.module);
      }
    }
    const help = (await cxctl('--help')).stdout;
    expect(help).toContain('workspace list');
    expect(help).toMatch(/^ {2}permissions /m);
    for (const permission of PERMISSIONS) expect(help, `--help names ${permission}`).toContain(permission);
    // docs/cxctl.md shows the list exactly as the command prints it.
    const shown = /^```text\n([\s\S]*?)^```$/m.exec(readFileSync('docs/cxctl.md', 'utf8'))?.[1];
    expect(shown).toBe(stdout);
  });

  it('lists every workspace with its status, disabled modules and host', async () => {
    const [first, second] = [uniqueSlug('list-a'), uniqueSlug('list-b')];
    await cxctlJson('workspace', 'create', first);
    await cxctlJson('workspace', 'create', second);
    await cxctlJson('workspace', 'suspend', second);
    await cxctlJson('workspace', 'modules', first, '--disable', 'surveys');
    const listed: { slug: string; status: string; disabledModules: string[]; host: string }[] = await cxctlJson('workspace', 'list');
    expect(listed.find((ws) => ws.slug === first)).toMatchObject({
      status: 'active',
      disabledModules: ['surveys'],
      host: `${first}.localhost`,
    });
    expect(listed.find((ws) => ws.slug === second)).toMatchObject({ status: 'suspended', disabledModules: [] });
    const slugs = listed.map((ws) => ws.slug);
    expect(slugs).toEqual([...slugs].sort((a, b) => a.localeCompare(b)));
    const { stdout } = await cxctl('workspace', 'list');
    expect(stdout).toContain(`${second}  suspended  disabled: none  limit: the plan default  ${second}.localhost`);
  });

  it('rejects bad input with a clear message, a non-zero exit and nothing written', async () => {
    const slug = uniqueSlug('cli');
    const cases: [string[], RegExp][] = [
      [['workspace', 'create', 'Not A Slug'], /Invalid slug/],
      [['workspace', 'create', 'api'], /shared edge/],
      [['key', 'create', '--workspace', slug, '--rate-limit', '60001'], /1 to 60000/],
      [['key', 'create', '--workspace', slug], /does not exist/],
      [['key', 'create', '--workspace', slug, '--scopes', 'ideas:fly'], /Unknown permission/],
      [['key', 'create', '--workspace', slug, '--expires-in', '3 weeks'], /Invalid duration/],
      [['key', 'create', '--workspace', slug, '--rate-limit', 'lots'], /Invalid --rate-limit/],
      [['key', 'revoke', 'nosuchkey000'], /No key/],
      [['workspace', 'modules', slug, '--disable', 'coffee'], /Unknown module/],
      [['workspace', 'suspend', slug], /does not exist/],
      [['frobnicate'], /unknown command/],
    ];
    for (const [args, message] of cases) {
      const result = await cxctl(...args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    expect(await findWorkspace(adminStore(), slug)).toBeNull();

    await cxctlJson('workspace', 'create', slug);
    const dir = mkdtempSync(join(tmpdir(), 'cxctl-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ people: [{ name: 'X', email: 'not-an-email', active: true }] }));
    const result = await cxctl('directory', 'import', slug, '--file', bad);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Invalid directory file: file\.people\.0\.email/);
    const dup = await cxctl('workspace', 'create', slug);
    expect(dup.stderr).toMatch(/already exists/);
  });
});
