/**
 * `cxctl labels add`: what a walkthrough and the demo use instead of `labels set`, so that they never
 * replace an operator's idea labels: it adds the missing ones after the workspace's own, and two
 * adds at once both land.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { addIdeaLabels } from '../../lib/admin/idea-labels.ts';
import { createWorkspace, findWorkspace, setIdeaLabels } from '../../lib/admin/workspaces.ts';
import { adminStore, sandbox, uniqueSlug } from '../support/fixtures.ts';

async function cxctl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, ['bin/cxctl.mjs', ...args, '--endpoint', sandbox.dynamodbEndpoint], {
    env: { ...process.env, TABLE_NAME: sandbox.tableName, WORKSPACE_DOMAIN: 'localhost' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

async function workspaceWithLabels(statuses: string[], modules: string[]): Promise<string> {
  const slug = uniqueSlug('labels');
  await createWorkspace(adminStore(), slug);
  await setIdeaLabels(adminStore(), slug, { statuses, modules });
  return slug;
}

describe('cxctl labels add', { timeout: 120_000 }, () => {
  it("adds the missing labels after the workspace's own, keeping their order, and says which", async () => {
    const slug = await workspaceWithLabels(['open', 'new'], ['billing']);
    const result = await cxctl('labels', 'add', slug, '--statuses', 'new,planned', '--modules', 'website,billing', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      statuses: ['open', 'new', 'planned'],
      modules: ['billing', 'website'],
      added: { statuses: ['planned'], modules: ['website'] },
    });
    expect((await findWorkspace(adminStore(), slug))?.ideaLabels).toEqual({
      statuses: ['open', 'new', 'planned'],
      modules: ['billing', 'website'],
    });

    const again = await cxctl('labels', 'add', slug, '--statuses', 'planned');
    expect(again.stdout).toBe('Nothing to add\nIdea statuses: open, new, planned\nIdea modules: billing, website\n');
  });

  it('keeps both of two adds sent at once (the second one reads again)', async () => {
    const slug = await workspaceWithLabels(['new'], []);
    await Promise.all([
      addIdeaLabels(adminStore(), slug, { statuses: ['planned'] }),
      addIdeaLabels(adminStore(), slug, { statuses: ['done'] }),
      addIdeaLabels(adminStore(), slug, { modules: ['billing'] }),
    ]);
    const labels = (await findWorkspace(adminStore(), slug))!.ideaLabels;
    expect([...labels.statuses].sort()).toEqual(['done', 'new', 'planned']);
    expect(labels.modules).toEqual(['billing']);
  });

  it('refuses a missing workspace and bad input, writing nothing', async () => {
    const missing = await cxctl('labels', 'add', uniqueSlug('none'), '--statuses', 'new');
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('does not exist') });
    const slug = await workspaceWithLabels(['new'], []);
    const bad = await cxctl('labels', 'add', slug, '--statuses', 'new,new');
    expect(bad.code).toBe(1);
    expect(await cxctl('labels', 'add', slug)).toMatchObject({ code: 2 });
    expect((await findWorkspace(adminStore(), slug))?.ideaLabels).toEqual({ statuses: ['new'], modules: [] });
  });
});
