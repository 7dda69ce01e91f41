/**
 * The committed collections (clients/postman, clients/http) match the API: generating them again
 * changes nothing (else `npm run collections`), and the `.http` file's chained ids each name a
 * request above them. test/integration/postman-collection.test.ts runs the Postman one with newman.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HTTP_FILE, httpFile, POSTMAN_FILE, postmanCollectionText } from '../../clients/collections/generate.ts';
import { routes } from '../../lib/manifest.ts';

describe('clients/postman and clients/http', () => {
  it('are generated from the current OpenAPI document and examples (else run `npm run collections` and commit)', async () => {
    const postman = await postmanCollectionText();
    expect(readFileSync(POSTMAN_FILE, 'utf8') === postman, 'clients/postman is stale: run `npm run collections`').toBe(true);
    expect(readFileSync(HTTP_FILE, 'utf8') === httpFile(), 'clients/http is stale: run `npm run collections`').toBe(true);
  }, 60_000);

  it('the .http file has every operation once at least, and every variable it uses is defined above its use', () => {
    const text = httpFile();
    const fileVariables = [...text.matchAll(/^@(\w+) = /gm)].map(([, name]) => name!);
    const named: string[] = [];
    const undefinedUses: string[] = [];
    for (const line of text.split('\n')) {
      const name = /^# @name (\w+)$/.exec(line)?.[1];
      if (name) named.push(name);
      for (const [, use] of line.matchAll(/\{\{([^}]+)\}\}/g)) {
        const request = /^(\w+)\.response\.body\.\$/.exec(use!)?.[1];
        const known = use === '$guid' || fileVariables.includes(use!) || (request !== undefined && named.slice(0, -1).includes(request));
        if (!known) undefinedUses.push(`${named.at(-1)}: {{${use}}}`);
      }
    }
    expect(undefinedUses).toEqual([]);
    expect(routes.map((route) => route.operationId).filter((operationId) => !named.includes(operationId))).toEqual([]);
  });

  it('the Postman collection points every request at the variables, never at a fixed host or key', async () => {
    const collection = JSON.parse(await postmanCollectionText());
    expect(collection.variable.map((v: { key: string }) => v.key)).toEqual(expect.arrayContaining(['baseUrl', 'workspaceHost', 'key']));
    expect(collection.variable.find((v: { key: string }) => v.key === 'baseUrl').value).toBe('http://127.0.0.1:3000/api/v1');
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: '{{key}}', type: 'string' }] });
    const requests = collection.item.flatMap((folder: { item: { request: any }[] }) => folder.item.map((item) => item.request));
    expect(requests).toHaveLength(routes.length + 1); // an SOP sent back is submitted again
    for (const request of requests) {
      expect(request.url.raw).toMatch(/^\{\{baseUrl\}\}/);
      const host = request.header.find((h: { key: string }) => h.key === 'X-Service-Workspace-Host');
      if (host) expect(host.value).toBe('{{workspaceHost}}');
    }
  });
});
