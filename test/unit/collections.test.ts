/**
 * The committed collections (clients/postman, clients/http) match the API: generating them again
 * changes nothing (else `npm run collections`), and the `.http` file's chained ids each name a
 * request above them. test/integration/postman-collection.test.ts runs the Postman one with newman.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectionFlow, inCollections, NOT_REPLAYED } from '../../clients/collections/flow.ts';
import { HTTP_FILES, httpFile, POSTMAN_FILE, postmanCollectionText } from '../../clients/collections/generate.ts';
import recorded from '../../lib/api-examples.json' with { type: 'json' };
import { routes } from '../../lib/manifest.ts';

const guide = readFileSync(resolve(import.meta.dirname, '../../docs/collections.md'), 'utf8');

describe('clients/postman and clients/http', () => {
  it('are generated from the current OpenAPI document and examples (else run `npm run collections` and commit)', async () => {
    const postman = await postmanCollectionText();
    expect(readFileSync(POSTMAN_FILE, 'utf8') === postman, 'clients/postman is stale: run `npm run collections`').toBe(true);
    for (const [dialect, file] of Object.entries(HTTP_FILES)) {
      expect(
        readFileSync(file, 'utf8') === httpFile(dialect as keyof typeof HTTP_FILES),
        `${file} is stale: run \`npm run collections\``,
      ).toBe(true);
    }
  }, 60_000);

  it('the REST Client .http file has every operation, and every variable it uses is defined above its use', () => {
    const text = httpFile('rest-client');
    const fileVariables = [...text.matchAll(/^@(\w+) = /gm)].map(([, name]) => name!);
    const named: string[] = [];
    const undefinedUses: string[] = [];
    for (const line of text.split('\n')) {
      const name = /^# @name (\w+)$/.exec(line)?.[1];
      if (name) named.push(name);
      for (const [, use] of line.matchAll(/\{\{([^}]+)\}\}/g)) {
        const request = /^(\w+)\.response\.body\.\$/.exec(use!)?.[1];
        const known =
          use === '$guid' ||
          use === '$datetime iso8601 -1 h' ||
          fileVariables.includes(use!) ||
          (request !== undefined && named.slice(0, -1).includes(request));
        if (!known) undefinedUses.push(`${named.at(-1)}: {{${use}}}`);
      }
    }
    expect(undefinedUses).toEqual([]);
    const keyHolders = routes.filter(inCollections).map((route) => route.operationId);
    expect(keyHolders.filter((operationId) => !named.includes(operationId))).toEqual([]);
    // OAuth's requests are an OAuth client's and a browser's, not replayable (a CSRF token, a single-use code);
    // the others left out need a record or a moment the flow does not make, each with its reason.
    expect(routes.filter((route) => !inCollections(route)).map((route) => route.operationId)).toEqual(
      routes
        .filter((route) => route.handler.startsWith('functions/oauth/') || route.operationId in NOT_REPLAYED)
        .map((route) => route.operationId),
    );
    for (const [operationId, reason] of Object.entries(NOT_REPLAYED)) {
      expect(
        routes.map((route) => route.operationId),
        operationId,
      ).toContain(operationId);
      expect(guide, `docs/collections.md names ${operationId} and why`).toContain(`\`${operationId}\``);
      expect(reason).toMatch(/\w/);
    }
  });

  it('places an operation the flow does not name yet last in its area, so a new route is in the collections at once', () => {
    const getIdea = routes.find((route) => route.operationId === 'getIdea')!;
    const added = { ...getIdea, operationId: 'getIdeaTwice' };
    const flow = collectionFlow([...routes, added], { ...recorded, getIdeaTwice: recorded.getIdea });
    const ideas = flow.find(({ folder }) => folder === 'Ideas')!.requests.map((request) => request.name);
    const before = collectionFlow(routes, recorded)
      .find(({ folder }) => folder === 'Ideas')!
      .requests.map((request) => request.name);
    // Every request of the area where it was, and the new one after them all.
    expect(ideas).toEqual([...before, 'getIdeaTwice']);
    // It reads the idea the flow created, as getIdea does.
    expect(flow.find(({ folder }) => folder === 'Ideas')!.requests.at(-1)!.path).toMatch(/^\/ideas\/\{\{id_\w+\}\}$/);
  });

  it('the JetBrains .http file sets each id in a response handler before a later request uses it', () => {
    const text = httpFile('jetbrains');
    const fileVariables = [...text.matchAll(/^@(\w+) = /gm)].map(([, name]) => name!);
    const set = new Set<string>();
    const unset: string[] = [];
    for (const line of text.split('\n')) {
      const handled = /client\.global\.set\("(\w+)", response\.body(\["?\w+"?\])+\);$/.exec(line)?.[1];
      if (handled) set.add(handled);
      // A pre-request script's variable: set for the request it precedes.
      const before = /request\.variables\.set\("(\w+)", /.exec(line)?.[1];
      if (before) set.add(before);
      for (const [, use] of line.matchAll(/\{\{([^}]+)\}\}/g)) {
        if (use !== '$uuid' && !fileVariables.includes(use!) && !set.has(use!)) unset.push(use!);
      }
    }
    expect(unset).toEqual([]);
    expect(set.size).toBeGreaterThanOrEqual(20);
  });

  it('the Postman collection points every request at the variables, never at a fixed host or key', async () => {
    const collection = JSON.parse(await postmanCollectionText());
    expect(collection.variable.map((v: { key: string }) => v.key)).toEqual(expect.arrayContaining(['baseUrl', 'workspaceHost', 'key']));
    expect(collection.variable.find((v: { key: string }) => v.key === 'baseUrl').value).toBe('http://127.0.0.1:3000/api/v1');
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: '{{key}}', type: 'string' }] });
    const requests = collection.item.flatMap((folder: { item: { request: any }[] }) => folder.item.map((item) => item.request));
    // Three requests twice: an SOP sent back is submitted again, a customer votes again, a second idea is made to merge.
    expect(requests).toHaveLength(routes.filter(inCollections).length + 3);
    // The headers the recorded call sent (If-Match, Idempotency-Key) are sent, not left disabled.
    const ifMatch = requests.filter((request: { header: { key: string }[] }) =>
      request.header.some((h) => h.key === 'If-Match' && !('disabled' in h && h.disabled)),
    );
    expect(ifMatch.length).toBeGreaterThanOrEqual(10);
    for (const request of requests) {
      expect(request.url.raw).toMatch(/^\{\{baseUrl\}\}/);
      const host = request.header.find((h: { key: string }) => h.key === 'X-Service-Workspace-Host');
      if (host) expect(host.value).toBe('{{workspaceHost}}');
    }
  });
});
