/**
 * Builds the OpenAPI 3.1 document from the route manifest and its zod schemas, so the document can
 * never drift from what the handlers validate. Served at GET /api/v1/openapi.json and written to
 * openapi.json by `npm run openapi`.
 */
import * as z from 'zod/mini';
import { type ErrorCatalog, platformErrorCodes } from './error-codes.ts';
import { jsonSchemaOf } from './json-schema.ts';
import { ComponentSchemas } from './openapi-components.ts';
import { errorResponsesOf } from './openapi-errors.ts';
import { apiOverview, apiTags } from './openapi-overview.ts';
import { type WebhookCatalog, webhooksOf } from './openapi-webhooks.ts';
import { API_PREFIX, onWorkspaceHost, type RouteDefinition, type Schema, SVG_RESPONSE_HEADERS } from './route.ts';
import { errorEnvelope } from './schemas.ts';
import { API_VERSION } from './version.ts';

type JsonSchema = Record<string, unknown>;

export const API_TITLE = 'Customer Experience Portal API';
export { API_VERSION };
/** Where the document is served (a manifest route of the Introduction area). */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
/** The reference page rendered from the document (getApiReference). */
export const API_REFERENCE_PATH = `${API_PREFIX}/docs`;

/** One recorded call of an operation: its request and its response. */
interface RecordedCall {
  request: { path: string; query?: string; headers?: Record<string, string>; body?: unknown };
  response: { status: number; body: unknown };
}

/**
 * The recorded calls of an operation (lib/api-examples.json): a success, shown as its request and
 * response examples, and refusals, each shown as an example of its error status.
 */
export interface ApiExample extends RecordedCall {
  errors?: readonly RecordedCall[];
}

/**
 * The recorded request as a curl command, Redoc's "Request samples" (x-codeSamples). It runs against
 * the server the reader picks: `BASE_URL`, `WORKSPACE_HOST` and `CX_KEY` from their shell, the sandbox
 * by default (where a reader starts); the same three variables as the Postman collection and `.http`
 * file. (Redoc shows only samples labelled with a language it knows, so one `curl` sample, not one per server.)
 */
function curlOf(route: RouteDefinition, example: ApiExample): string {
  const query = example.request.query ? `?${example.request.query}` : '';
  // OAuth's routes are called on the workspace's own host, which names the workspace (a root route,
  // the well-known documents, above the API's base path): a browser or an OAuth client sends no header.
  const base = onWorkspaceHost(route)
    ? `\${WORKSPACE_ORIGIN:-http://your-workspace.localhost:3000}${route.root ? '' : API_PREFIX}`
    : `\${BASE_URL:-http://127.0.0.1:3000${API_PREFIX}}`;
  const lines = [`curl -X ${route.method} "${base}${example.request.path}${query}"`];
  if (route.auth !== 'none') {
    lines.push(`-H "X-Service-Workspace-Host: \${WORKSPACE_HOST:-your-workspace.localhost}"`, `-H "Authorization: Bearer $CX_KEY"`);
  }
  for (const [name, value] of Object.entries(example.request.headers ?? {})) lines.push(`-H '${name}: ${value}'`);
  if (example.request.body !== undefined && route.request?.contentType) {
    const form = new URLSearchParams(example.request.body as Record<string, string>).toString();
    lines.push(`-H 'Content-Type: ${route.request.contentType}'`, `-d '${form}'`);
  } else if (example.request.body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`, `-d '${JSON.stringify(example.request.body)}'`);
  }
  return lines.join(' \\\n  ');
}

const recordedExample = (value: unknown) => ({ recorded: { summary: 'Recorded from the sandbox by the tests', value } });

/** The schema as JSON Schema, its named shapes (lib/platform/schemas.ts, named) adopted into `components`. */
function toJsonSchema(components: ComponentSchemas, schema: Schema, io: 'input' | 'output'): JsonSchema {
  return components.adopt(jsonSchemaOf(schema, io), io);
}

function parametersOf(components: ComponentSchemas, route: RouteDefinition): JsonSchema[] {
  const parameters: JsonSchema[] = [
    {
      name: 'X-Service-Workspace-Host',
      in: 'header',
      required: true,
      description:
        'The workspace host (`<slug>.<domain>`, as printed by `cxctl workspace create`) or the bare slug. ' +
        'May be omitted only when the API is called on the workspace host itself.',
      schema: { type: 'string' },
    },
  ];
  for (const [where, schema] of [
    ['path', route.request?.params],
    ['query', route.request?.query],
  ] as const) {
    if (!schema) continue;
    const json = toJsonSchema(components, schema, 'input');
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((json.properties as Record<string, JsonSchema>) ?? {})) {
      const { description, ...propertySchema } = property;
      parameters.push({ name, in: where, required: where === 'path' || required.has(name), description, schema: propertySchema });
    }
  }
  if (route.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Optional, 1-255 visible ASCII characters (a UUID is ideal), unique per record you mean to create. Within 24 hours the same key ' +
        'with the same body returns the first response again (with `Idempotent-Replayed: true`) and creates nothing; with a different ' +
        'body it is a 409 `idempotency_key_reused`. Only successful creations are remembered.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  for (const [name, header] of Object.entries(route.request?.headers ?? {})) {
    parameters.push({
      name,
      in: 'header',
      required: header.required ?? false,
      description: header.description,
      schema: { type: 'string' },
    });
  }
  return parameters;
}

/** A public route's own path and query parameters (OAuth's authorize request); no workspace header, no key. */
function publicParametersOf(components: ComponentSchemas, route: RouteDefinition): JsonSchema[] {
  if (!route.request?.query) return [];
  const json = toJsonSchema(components, route.request.query, 'input');
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties as Record<string, JsonSchema>) ?? {}).map(([name, property]) => {
    const { description, ...schema } = property;
    return { name, in: 'query', required: required.has(name), description, schema };
  });
}

/** Where a root route is served: each workspace's own host, not below the API's base URL. */
const ROOT_SERVERS = [
  {
    url: 'http://{workspace}.{domain}:{port}',
    description: 'The local sandbox, on the workspace host (`<slug>.localhost` resolves to loopback in browsers and curl)',
    variables: {
      workspace: { default: 'your-workspace' },
      domain: { default: 'localhost', description: "The sandbox's WORKSPACE_DOMAIN" },
      port: { default: '3000', description: "The sandbox's PORT" },
    },
  },
  {
    url: 'https://{workspace}.{domain}',
    description: 'A deployment, on the workspace host',
    variables: {
      workspace: { default: 'your-workspace' },
      domain: { default: 'example.com', description: "The deployment's WORKSPACE_DOMAIN" },
    },
  },
];

const RATE_LIMIT_HEADERS = {
  'X-Request-Id': { description: 'Identifies the request in the service logs', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed per window for this key', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
};

/** What the chain sends with every SVG (route.ts, SVG_RESPONSE_HEADERS), documented as such. */
const SVG_HEADERS = Object.fromEntries(
  Object.entries(SVG_RESPONSE_HEADERS).map(([name, value]) => [
    name,
    { description: `Always \`${value}\`: the picture runs no script and loads nothing`, schema: { type: 'string', enum: [value] } },
  ]),
);

const API_VERSION_HEADER = {
  'API-Version': {
    description: 'The version of this contract that answered (see the changelog)',
    schema: { type: 'string', example: API_VERSION },
  },
};

const DEPRECATION_HEADERS = {
  Deprecation: { description: 'When this operation was deprecated (RFC 9745), e.g. `@1767225600`', schema: { type: 'string' } },
  Sunset: { description: 'From when it may stop working (RFC 8594 HTTP-date)', schema: { type: 'string' } },
};

const IDEMPOTENT_REPLAY_HEADER = {
  'Idempotent-Replayed': {
    description: '`true` when this is the remembered response of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** A recorded refusal, named by its error code (Redoc lists the examples of a status by name). */
function recordedRefusal(refusal: RecordedCall): [string, JsonSchema] {
  const code = (refusal.response.body as { error?: string }).error ?? 'error';
  return [code, { summary: `\`${code}\`, recorded from the sandbox by the tests`, value: refusal.response.body }];
}

/** The shared envelope, or the envelope with the members this route's status declares (RouteDefinition.errorMembers). */
const ERROR_PAGE = 'A page for the person in the browser, in their language (as the route’s page), naming the error code and its message';

function errorSchemaOf(components: ComponentSchemas, route: RouteDefinition, status: number): JsonSchema {
  const members = route.errorMembers?.[status as keyof typeof route.errorMembers];
  if (!members) return { $ref: '#/components/schemas/Error' };
  const optional = Object.fromEntries(Object.entries(members).map(([name, schema]) => [name, z.optional(schema)]));
  return toJsonSchema(components, z.extend(errorEnvelope, optional), 'output');
}

function operationOf(
  components: ComponentSchemas,
  route: RouteDefinition,
  example: ApiExample | undefined,
  catalog: ErrorCatalog,
): JsonSchema {
  const isPublic = route.auth === 'none';
  const responses: Record<string, JsonSchema> = {
    [route.response.status]: {
      description: route.response.description ?? 'Success',
      headers: {
        ...API_VERSION_HEADER,
        ...(route.deprecated ? DEPRECATION_HEADERS : {}),
        ...(isPublic ? {} : RATE_LIMIT_HEADERS),
        ...(route.idempotent ? IDEMPOTENT_REPLAY_HEADER : {}),
        ...(route.response.location
          ? {
              Location: {
                description: `Where the ${route.response.status === 202 ? 'job is followed' : 'created record is read'}: \`${API_PREFIX}${route.response.location}\``,
                schema: { type: 'string' },
              },
            }
          : {}),
        ...(route.response.contentType === 'image/svg+xml' ? SVG_HEADERS : {}),
        ...Object.fromEntries(
          Object.entries(route.response.headers ?? {}).map(([n, h]) => [n, { description: h.description, schema: { type: 'string' } }]),
        ),
      },
      content: {
        [route.response.contentType ?? 'application/json']: {
          schema: toJsonSchema(components, route.response.body, 'output'),
          ...(example ? { examples: recordedExample(example.response.body) } : {}),
        },
      },
    },
  };
  const also = route.response.also;
  if (also) {
    const { Location: _, ...headers } = (responses[route.response.status] as { headers: Record<string, unknown> }).headers;
    responses[also.status] = { ...responses[route.response.status], description: also.description, headers };
  }
  for (const { status, description, codes } of errorResponsesOf(route, catalog)) {
    const refusals = (example?.errors ?? []).filter((error) => error.response.status === status);
    responses[status] = {
      description,
      'x-error-codes': codes,
      ...(status === 429 || status === 503
        ? { headers: { 'Retry-After': { description: 'Whole seconds to wait', schema: { type: 'integer' } } } }
        : {}),
      content: route.response.errorsAsPages
        ? { 'text/html': { schema: { type: 'string', description: ERROR_PAGE } } }
        : {
            'application/json': {
              schema: errorSchemaOf(components, route, status),
              ...(refusals.length > 0 ? { examples: Object.fromEntries(refusals.map(recordedRefusal)) } : {}),
            },
          },
    };
  }
  for (const [status, answer] of Object.entries(route.response.otherAnswers ?? {})) {
    const schema = answer.body ? toJsonSchema(components, answer.body, 'output') : undefined;
    const existing = responses[status];
    if (existing) {
      // The envelope's codes or the protocol's answer: either body, as the status's description says.
      const content = existing.content as Record<string, { schema: JsonSchema; examples?: unknown }>;
      const [mediaType, given] = Object.entries(content)[0]!;
      content[mediaType] = { ...given, schema: schema ? { anyOf: [given.schema, schema] } : given.schema };
      existing.description = `${existing.description as string}\n\nOr: ${answer.description}`;
    } else {
      responses[status] = {
        description: answer.description,
        ...(schema ? { content: { 'application/json': { schema } } } : {}),
      };
    }
  }
  const permissions = route.permissions.length > 0 ? route.permissions.join(', ') : 'none';
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.deprecated ? { deprecated: true } : {}),
    description: [
      route.deprecated
        ? `**Deprecated** since ${route.deprecated.since}; may stop working after ${route.deprecated.sunset}.` +
          (route.deprecated.replacement ? ` Use ${route.deprecated.replacement} instead.` : '')
        : undefined,
      route.description,
      isPublic ? undefined : `Permission: ${permissions}.`,
      route.module ? `Module: ${route.module}.` : undefined,
    ]
      .filter(Boolean)
      .join('\n\n'),
    ...(isPublic ? { security: [] } : { 'x-permissions': route.permissions }),
    parameters: isPublic ? publicParametersOf(components, route) : parametersOf(components, route),
    ...(route.request?.body
      ? {
          requestBody: {
            required: true,
            content: {
              [route.request.contentType ?? 'application/json']: {
                schema: toJsonSchema(components, route.request.body, 'input'),
                ...(example?.request.body !== undefined ? { examples: recordedExample(example.request.body) } : {}),
              },
            },
          },
        }
      : {}),
    responses,
    ...(example ? { 'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: curlOf(route, example) }] } : {}),
  };
}

/**
 * The document of the given routes (the manifest, lib/manifest.ts), with their recorded examples by
 * operationId; the error catalog (lib/error-codes.ts) says what each area's codes mean, and the webhook
 * catalog (lib/webhooks/event-catalog.ts) the events the API sends to receivers (its `webhooks` section).
 */
export function buildOpenApiDocument(
  routes: readonly RouteDefinition[],
  examples: Readonly<Record<string, ApiExample>> = {},
  catalogs: { errors?: ErrorCatalog; webhooks?: WebhookCatalog } = {},
): JsonSchema {
  const catalog = catalogs.errors ?? platformErrorCodes;
  const webhookCatalog = catalogs.webhooks;
  const components = new ComponentSchemas();
  // The envelope every error status shares (named `Error`): referenced by each operation that adds nothing to it.
  toJsonSchema(components, errorEnvelope, 'output');
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    // OpenAPI paths start with `/`: the API's root (`''` in the manifest) is `/` below the server URL.
    const path = route.path || '/';
    paths[path] = {
      ...paths[path],
      ...(route.root ? { servers: ROOT_SERVERS as unknown as JsonSchema } : {}),
      [route.method.toLowerCase()]: operationOf(components, route, examples[route.operationId], catalog),
    };
  }
  const events = webhookCatalog ? webhooksOf(components, webhookCatalog) : undefined;
  const named = components.resolve({ paths, webhooks: events?.webhooks });
  const shared = shareCommonResponses(named.document.paths as Record<string, Record<string, JsonSchema>>);
  return {
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: API_VERSION,
      contact: { name: 'Customer Experience Portal API team' },
      // Words, not an SPDX reference: the reference page shows the name as it is.
      license: { name: 'Proprietary: all rights reserved' },
      description: apiOverview(),
    },
    // The sandbox first: it is where a reader starts, and the page's samples follow this order.
    servers: [
      {
        // The sandbox listens on 127.0.0.1 only; `localhost` may resolve to ::1 first and miss it.
        url: `http://127.0.0.1:{port}${API_PREFIX}`,
        description: 'The local sandbox (`npm start`); send X-Service-Workspace-Host: your-workspace.localhost',
        variables: { port: { default: '3000', description: "The sandbox's PORT" } },
      },
      {
        url: `https://{workspace}.{domain}${API_PREFIX}`,
        description: 'A deployment, called on the workspace host (which then needs no X-Service-Workspace-Host)',
        variables: {
          workspace: { default: 'your-workspace', description: 'The workspace slug' },
          domain: { default: 'example.com', description: "The deployment's WORKSPACE_DOMAIN" },
        },
      },
    ],
    tags: apiTags(),
    security: [{ developerKey: [] }],
    paths: named.document.paths,
    ...(named.document.webhooks ? { webhooks: named.document.webhooks } : {}),
    components: {
      securitySchemes: {
        developerKey: { type: 'http', scheme: 'bearer', description: 'A Developer key: `cxk_…`, issued with cxctl' },
        ...events?.securitySchemes,
      },
      ...(Object.keys(shared).length > 0 ? { responses: shared } : {}),
      schemas: named.schemas,
    },
  };
}

/**
 * The answers most operations give alike (401, 403, 415, 429, 502, 503: the key, the module, the
 * media type, the limits, AWS), written once under `components.responses` and referred to: inline
 * on each of 120 operations they were an eighth of the document. The spelling most operations give
 * is shared; one that differs (its own examples, codes or body) stays inline.
 */
const SHARED_RESPONSES: Readonly<Record<string, string>> = {
  '401': 'Unauthenticated',
  '403': 'Forbidden',
  '415': 'UnsupportedMediaType',
  '429': 'RateLimited',
  '502': 'InternalError',
  '503': 'ServiceBusy',
};

function shareCommonResponses(paths: Record<string, Record<string, JsonSchema>>): Record<string, JsonSchema> {
  const answers = Object.values(paths).flatMap((operations) =>
    Object.values(operations).flatMap((operation) => {
      const responses = operation.responses as Record<string, JsonSchema> | undefined;
      return responses ? [responses] : [];
    }),
  );
  const shared: Record<string, JsonSchema> = {};
  for (const [status, name] of Object.entries(SHARED_RESPONSES)) {
    // The spelling most operations give is the one shared; one with examples of its own stays inline.
    const counts = new Map<string, number>();
    for (const responses of answers) {
      const json = responses[status] && JSON.stringify(responses[status]);
      if (json && !json.includes('"examples"')) counts.set(json, (counts.get(json) ?? 0) + 1);
    }
    const [common] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (!common) continue;
    shared[name] = JSON.parse(common) as JsonSchema;
    for (const responses of answers) {
      if (responses[status] && JSON.stringify(responses[status]) === common) responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  return shared;
}
