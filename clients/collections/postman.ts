/**
 * The Postman collection (clients/postman/portal-api.postman_collection.json): converted from the
 * OpenAPI document by openapi-to-postmanv2 (names, descriptions, parameters with their
 * documentation, auth), then made runnable in order against any workspace: each request carries
 * its recorded example (clients/collections/flow.ts) with the ids of earlier requests as
 * variables, a test that the answer is the documented success, and a script that captures the ids
 * later requests need. Variables: `baseUrl` (the sandbox first), `workspaceHost`, `key`, `webhookUrl`.
 */
import { convertV2 } from 'openapi-to-postmanv2';
import { apiDocument } from '../../lib/api-document.ts';
import { AN_HOUR_AGO, COLLECTION_VARIABLES, collectionFlow, type FlowRequest, SANDBOX_BASE_URL } from './flow.ts';

// biome-ignore lint/suspicious/noExplicitAny: the converter's output is untyped JSON, read and rewritten member by member
type Json = Record<string, any>;

/** The ids a path names, in order: UUIDs, and the 22-character references of votes and comments. */
const PATH_IDS =
  "const ids = (text) => (text || '').split(/[/?#]/).filter((part) => /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9_-]{22})$/i.test(part));";

/**
 * Runs after every request: keeps the ETag of the record the request named (the last id in its
 * path), so a later `If-Match` sends the current one. A create names its record by `Location`, and
 * only where that ends in the record's id: a vote's or a comment's points at its idea's list, and
 * its ETag is the vote's or the comment's, not the idea's. So is a vote's answer to the same voter
 * again (200, no `Location`): a POST to a vote or comment list is never the idea's version.
 */
const COLLECTION_TEST_SCRIPT = [
  "const etag = pm.response.headers.get('ETag');",
  PATH_IDS,
  "const location = pm.response.headers.get('Location');",
  "const created = location && ids(location).filter((id) => location.replace(/[?#].*$/, '').endsWith('/' + id));",
  'const toList = /\\/(votes|comments)$/.test(pm.request.url.getPath());',
  'const named = location ? created : toList ? [] : ids(pm.request.url.getPath());',
  "if (etag && named.length > 0) pm.collectionVariables.set('etag:' + named[named.length - 1], etag);",
];

/** Before a request that sends `If-Match`: the ETag last seen for the record it names, if any. */
const IF_MATCH_SCRIPT = [
  PATH_IDS,
  'const named = ids(pm.variables.replaceIn(pm.request.url.getPath()));',
  "const etag = named.length > 0 && pm.collectionVariables.get('etag:' + named[named.length - 1]);",
  "if (etag) pm.request.headers.upsert({ key: 'If-Match', value: etag });",
];

/** Before a request that sends a time relative to now (flow.ts AN_HOUR_AGO): the moment, as it goes. */
const AN_HOUR_AGO_SCRIPT = ["pm.variables.set('anHourAgo', new Date(Date.now() - 3600000).toISOString());"];

/**
 * After a request that shows a webhook's secret: hands it to the sample receiver (`npm run
 * webhook-receiver`, started without one), so that it verifies the enable step's signed event. Only
 * to a receiver on this machine over plain HTTP: a secret never leaves for a URL someone typed in.
 */
const RECEIVER_SECRET_SCRIPT = [
  "const receiver = /^http:\\/\\/(127\\.0\\.0\\.1|localhost)(:\\d+)?(?=\\/)/.exec(pm.variables.get('webhookUrl') || '');",
  'if (receiver && body.webhook && body.webhook.secret) {',
  '  pm.sendRequest(',
  "    { url: receiver[0] + '/secret', method: 'PUT', header: { 'Content-Type': 'application/json' }, body: { mode: 'raw', raw: JSON.stringify({ secret: body.webhook.secret }) } },",
  "    (error, res) => console.log(error || res.code !== 204 ? 'The sample receiver did not take the secret: ' + (error ? error.message : res.code) : 'The sample receiver has the new secret'),",
  '  );',
  '}',
];

function testScript(request: FlowRequest): string[] {
  const at = (path: readonly (string | number)[]) =>
    `${JSON.stringify(path)}.reduce((value, key) => (value == null ? undefined : value[key]), body)`;
  return [
    `pm.test('answers ${request.status}', () => pm.response.to.have.status(${request.status}));`,
    ...(request.captures.length > 0 || request.until || request.showsWebhookSecret ? ['const body = pm.response.json();'] : []),
    ...(request.showsWebhookSecret ? RECEIVER_SECRET_SCRIPT : []),
    ...(request.until
      ? [
          // Again in half a second, 20 times at most, until what it waits for is there.
          "const tries = Number(pm.collectionVariables.get('tries') || 0);",
          `if (${at(request.until)} === undefined && tries < 20) {`,
          "  pm.collectionVariables.set('tries', tries + 1);",
          '  postman.setNextRequest(pm.info.requestName);',
          '  setTimeout(() => {}, 500);',
          "} else pm.collectionVariables.unset('tries');",
        ]
      : []),
    ...request.captures.map(
      ({ variable, path }) => `{ const id = ${at(path)}; if (id !== undefined) pm.collectionVariables.set('${variable}', id); }`,
    ),
  ];
}

/** The path as Postman writes it: `{id}` becomes `:id`. */
const postmanPath = (path: string) => (path || '/').replace(/\{(\w+)\}/g, ':$1');

function convert(document: Json): Promise<Json> {
  return new Promise((resolve, reject) =>
    convertV2(
      { type: 'json', data: document as never },
      { folderStrategy: 'Tags', parametersResolution: 'Example', enableOptionalParameters: false },
      (error, result) => {
        if (error) reject(error);
        else if (!result?.result || !result.output?.[0]) reject(new Error(`openapi-to-postmanv2: ${result?.reason}`));
        else resolve(result.output[0].data as Json);
      },
    ),
  );
}

/** Drops the converter's random ids, so the same document gives the same collection. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'id' && key !== '_postman_id')
      .map(([key, member]) => [key, withoutIds(member)]),
  );
}

function runnable(item: Json, request: FlowRequest): Json {
  const segments = request.path.split('/').filter(Boolean);
  const template = item.request.url.path as string[];
  const variables = template.flatMap((segment, index) =>
    segment.startsWith(':') ? [{ key: segment.slice(1), value: segments[index] }] : [],
  );
  const recordedHeaders = new Map(request.headers.map(([name, value]) => [name.toLowerCase(), value]));
  const header = (item.request.header as Json[])
    .filter((h) => !['accept'].includes(h.key.toLowerCase()))
    .map((h) => {
      const name = h.key.toLowerCase();
      if (name === 'x-service-workspace-host') return { ...h, value: '{{workspaceHost}}', disabled: false };
      if (name === 'idempotency-key') return { ...h, value: '{{$guid}}', disabled: false };
      if (recordedHeaders.has(name)) return { ...h, value: recordedHeaders.get(name), disabled: false };
      return { ...h, disabled: name !== 'content-type' };
    });
  const query = request.query.map(([key, value]) => ({ key, value }));
  const success = (item.response as Json[] | undefined)?.find((response) => response.code === request.status);
  return {
    // The operationId: stable (the converter's ids are random) and says which operation a run result is.
    id: request.name,
    name: request.name === request.route.operationId ? item.name : `${item.name} (again)`,
    event: [
      { listen: 'test', script: { type: 'text/javascript', exec: testScript(request) } },
      ...(recordedHeaders.has('if-match') ? [{ listen: 'prerequest', script: { type: 'text/javascript', exec: IF_MATCH_SCRIPT } }] : []),
      ...(request.body?.includes(AN_HOUR_AGO)
        ? [{ listen: 'prerequest', script: { type: 'text/javascript', exec: AN_HOUR_AGO_SCRIPT } }]
        : []),
    ],
    request: {
      ...item.request,
      header,
      url: {
        raw: `{{baseUrl}}/${template.join('/')}${query.length > 0 ? `?${query.map((q) => `${q.key}=${q.value}`).join('&')}` : ''}`,
        host: ['{{baseUrl}}'],
        path: template,
        query,
        variable: variables.map((variable) => ({
          ...variable,
          description: (item.request.url.variable as Json[]).find((v) => v.key === variable.key)?.description,
        })),
      },
      ...(request.body === undefined ? {} : { body: { mode: 'raw', raw: request.body, options: { raw: { language: 'json' } } } }),
    },
    // The saved answer: the recorded body; the converter's header values are made up, so only Content-Type stays.
    response: success ? [{ ...success, originalRequest: undefined, header: (success.header as Json[]).filter((h) => !h.disabled) }] : [],
  };
}

/** The collection, runnable folder after folder against a fresh workspace. */
export async function postmanCollection(): Promise<Json> {
  const document = structuredClone(apiDocument()) as Json;
  document.servers = [{ url: SANDBOX_BASE_URL, description: 'The local sandbox (`npm start`)' }];
  const converted = withoutIds(await convert(document)) as Json;
  const flow = collectionFlow();
  const items = (converted.item as Json[]).flatMap((folder) => folder.item as Json[]);
  const itemOf = (request: FlowRequest) => {
    const path = postmanPath(request.route.path).split('/').filter(Boolean).join('/');
    const item = items.find((i) => i.request.method === request.route.method && (i.request.url.path as string[]).join('/') === path);
    if (!item) throw new Error(`openapi-to-postmanv2 made no request for ${request.route.operationId}`);
    return item;
  };
  return {
    info: {
      ...converted.info,
      description: {
        content: `${converted.info.description?.content ?? ''}\n\nGenerated by \`npm run collections\` from the OpenAPI document. Set up the workspace first as docs/collections.md says (a key, idea labels, an SOP directory, the sample receiver), then run the folders in order: later requests use the ids earlier ones created.`,
        type: 'text/plain',
      },
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{key}}', type: 'string' }] },
    event: [{ listen: 'test', script: { type: 'text/javascript', exec: COLLECTION_TEST_SCRIPT } }],
    variable: [
      ...Object.entries(COLLECTION_VARIABLES).map(([key, value]) => ({ key, value, type: 'string' })),
      // Each id a request captures for later ones, until then the recorded stand-in: a later request
      // whose record was not made gets 404 `not_found`, not a malformed path.
      ...flow.flatMap(({ requests }) =>
        requests.flatMap((r) => r.captures.map(({ variable, recorded }) => ({ key: variable, value: recorded, type: 'string' }))),
      ),
    ],
    item: flow.map(({ folder, requests }) => ({
      name: folder,
      item: requests.map((request) => runnable(itemOf(request), request)),
    })),
  };
}
