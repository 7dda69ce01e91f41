/**
 * Authentication reads one of the workspace item's copies, at random, so a workspace's requests do
 * not all read one item (issue 32: 3,000 strongly consistent reads a second per item). Every
 * operator change writes the item and every copy in one transaction, so a suspension, a module
 * switched off or new idea labels count from the very next request whichever copy it reads; a
 * workspace made before the copies existed still works, one round trip slower, until it gets them.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { changeModules, setIdeaLabels, setWorkspaceStatus, writeWorkspaceCopies } from '../../lib/admin/workspaces.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { WORKSPACE_COPIES } from '../../lib/platform/data/workspace-record.ts';
import {
  type ApiResponse,
  adminStore,
  call,
  dynamoDbCalls,
  dynamoDbDepth,
  expectErrorEnvelope,
  newWorkspace,
} from '../support/fixtures.ts';

const COPIES = Array.from({ length: WORKSPACE_COPIES }, (_, copy) => copy);

async function item(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  const { Item } = await adminStore().db.send(new GetCommand({ TableName: adminStore().table, Key: key, ConsistentRead: true }));
  return Item;
}

/** What the workspace item says, and what each copy says, without their keys. */
async function itemAndCopies(slug: string) {
  const strip = (found: Record<string, unknown> | undefined) => {
    if (!found) return undefined;
    const { pk: _pk, sk: _sk, entity: _entity, ...rest } = found;
    return rest;
  };
  return {
    item: strip(await item(keys.workspace(slug))),
    copies: await Promise.all(COPIES.map(async (copy) => strip(await item(keys.workspaceCopy(slug, copy))))),
  };
}

async function expectCopiesInStep(slug: string): Promise<void> {
  const { item: stored, copies } = await itemAndCopies(slug);
  expect(stored).toBeDefined();
  for (const copy of copies) expect(copy).toEqual(stored);
}

/** The next requests, one after the other: twice as many as copies, so that (at random) most copies are read. */
async function nextRequests(ws: { host: string; key: string }, path: string): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  for (let i = 0; i < 2 * WORKSPACE_COPIES; i++) answers.push(await call('GET', path, { host: ws.host, key: ws.key }));
  return answers;
}

describe('workspace copies', () => {
  it('are written with the workspace and with every change of it, in step with the item', async () => {
    const ws = await newWorkspace('copies');
    await expectCopiesInStep(ws.slug);
    await setWorkspaceStatus(adminStore(), ws.slug, 'suspended');
    await expectCopiesInStep(ws.slug);
    await setWorkspaceStatus(adminStore(), ws.slug, 'active');
    await changeModules(adminStore(), ws.slug, { disable: ['ideas', 'sops'] });
    await expectCopiesInStep(ws.slug);
    await changeModules(adminStore(), ws.slug, { enable: ['ideas', 'sops'] });
    await setIdeaLabels(adminStore(), ws.slug, { statuses: ['new', 'done'] });
    await expectCopiesInStep(ws.slug);
    const { item: stored } = await itemAndCopies(ws.slug);
    expect(stored).toMatchObject({ status: 'active', ideaLabels: { statuses: ['new', 'done'], modules: [] }, revision: 6 });
    expect(stored).not.toHaveProperty('disabledModules');
  });

  it('make a suspension and a module switched off count from the very next request, whichever copy it reads', async () => {
    const ws = await newWorkspace('copies-next');
    await setWorkspaceStatus(adminStore(), ws.slug, 'suspended');
    for (const res of await nextRequests(ws, '/me')) expectErrorEnvelope(res, 403, 'workspace_suspended');
    await setWorkspaceStatus(adminStore(), ws.slug, 'active');
    for (const res of await nextRequests(ws, '/me')) expect(res.status).toBe(200);
    await changeModules(adminStore(), ws.slug, { disable: ['ideas'] });
    for (const res of await nextRequests(ws, '/ideas')) expectErrorEnvelope(res, 403, 'module_disabled');
    await setIdeaLabels(adminStore(), ws.slug, { statuses: ['triaged'] });
    await changeModules(adminStore(), ws.slug, { enable: ['ideas'] });
    for (const res of await nextRequests(ws, '/ideas/labels')) expect(res.body.data.statuses).toEqual(['triaged']);
  }, 60_000);

  it('keep two operators changing one workspace at once from undoing each other', async () => {
    const ws = await newWorkspace('copies-race');
    await Promise.all([
      changeModules(adminStore(), ws.slug, { disable: ['journeys'] }),
      changeModules(adminStore(), ws.slug, { disable: ['surveys'] }),
      setIdeaLabels(adminStore(), ws.slug, { modules: ['billing'] }),
      setWorkspaceStatus(adminStore(), ws.slug, 'suspended'),
    ]);
    await expectCopiesInStep(ws.slug);
    const { item: stored } = await itemAndCopies(ws.slug);
    expect(stored).toMatchObject({ status: 'suspended', disabledModules: new Set(['journeys', 'surveys']), revision: 5 });
    expect(stored?.ideaLabels).toEqual({ statuses: [], modules: ['billing'] });
  });

  it('are not needed by a workspace made before they existed: it is read itself, one round trip more, until it gets them', async () => {
    const ws = await newWorkspace('copies-legacy');
    await asBeforeCopies(ws.slug);
    // The copy is missing: the item itself is read beside the count, then the list's own Query.
    const before = await call('GET', '/ideas?limit=1', { host: ws.host, key: ws.key });
    expect([before.status, dynamoDbCalls(before), dynamoDbDepth(before)]).toEqual([200, 5, 3]);
    // The migration writes them from the item as it stands.
    await writeWorkspaceCopies(adminStore(), ws.slug);
    await expectCopiesInStep(ws.slug);
    const after = await call('GET', '/ideas?limit=1', { host: ws.host, key: ws.key });
    expect([after.status, dynamoDbCalls(after), dynamoDbDepth(after)]).toEqual([200, 4, 2]);
    // So does an operator's first change of it.
    await asBeforeCopies(ws.slug);
    await setWorkspaceStatus(adminStore(), ws.slug, 'suspended');
    await expectCopiesInStep(ws.slug);
    for (const res of await nextRequests(ws, '/me')) expectErrorEnvelope(res, 403, 'workspace_suspended');
  });
});

/** The workspace as the layout before copies left it: the item alone, without a revision. */
async function asBeforeCopies(slug: string): Promise<void> {
  const { revision: _revision, ...legacy } = (await item(keys.workspace(slug)))!;
  await adminStore().db.send(new PutCommand({ TableName: adminStore().table, Item: legacy }));
  for (const copy of COPIES) {
    await adminStore().db.send(new DeleteCommand({ TableName: adminStore().table, Key: keys.workspaceCopy(slug, copy) }));
  }
}
