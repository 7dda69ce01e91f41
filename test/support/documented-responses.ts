/**
 * Checks a response body against what the OpenAPI document (lib/api-document.ts) says that
 * operation answers with that status, as a client generated from the document would read it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { apiDocument } from '../../lib/api-document.ts';
import type { RouteDefinition } from '../../lib/platform/route.ts';

type JsonSchema = Record<string, unknown>;
type DocumentedResponse = { $ref?: string; 'x-error-codes'?: string[]; content?: Record<string, { schema: JsonSchema }> };

const document = apiDocument() as {
  paths: Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>;
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: JsonSchema }> } } }>;
  components: { schemas: Record<string, JsonSchema>; responses?: Record<string, DocumentedResponse> };
};

/** The response itself, where the document refers to one it shares (`#/components/responses/ServiceBusy`). */
function resolved(response: DocumentedResponse | undefined): DocumentedResponse | undefined {
  if (!response?.$ref) return response;
  return document.components.responses?.[response.$ref.replace('#/components/responses/', '')];
}

// strict: false, because the document's schemas carry OpenAPI's own keywords (`example`).
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its plugin is the default export's `default`.
formatsPlugin.default(ajv);
ajv.addSchema({ $id: 'document', components: document.components });

/** The statuses the document lists for the route: its success and its errors. */
export function documentedStatuses(route: Pick<RouteDefinition, 'path' | 'method'>): number[] {
  return Object.keys(document.paths[route.path || '/']![route.method.toLowerCase()]!.responses).map(Number);
}

/**
 * Null when `body` is what the document allows for the route's `status`; otherwise why not (the
 * status is undocumented, the body breaks its schema, e.g. a member the schema does not declare, or
 * its `error` is no code the document lists for that status, `x-error-codes`).
 */
export function undocumentedIn(
  route: Pick<RouteDefinition, 'path' | 'method' | 'operationId'>,
  status: number,
  body: unknown,
): string | null {
  const response = resolved(document.paths[route.path || '/']?.[route.method.toLowerCase()]?.responses[status]);
  if (!response) return `${route.operationId} does not document status ${status}`;
  const codes = response['x-error-codes'];
  const code = (body as { error?: unknown } | null)?.error;
  // A protocol's own answer with this status (the MCP route's JSON-RPC errors) has no envelope code: its schema judges it.
  if (codes && typeof code === 'string' && !codes.includes(code)) {
    return `${route.operationId} ${status}: error ${JSON.stringify(code)} is none of the codes the document lists (${codes.join(', ')})`;
  }
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return null;
  return violationOf(`${route.operationId} ${status}`, schema, body);
}

function violationOf(what: string, schema: JsonSchema, body: unknown): string | null {
  // `#/components/...` references resolve against the document registered above.
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"document#/components/')));
  if (validate(body)) return null;
  return `${what}: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`;
}

/** Null when `body` is what the document's `webhooks` section says an event of its `type` carries; otherwise why not. */
export function undocumentedEvent(body: { type?: unknown; [member: string]: unknown }): string | null {
  const event = document.webhooks[String(body.type)];
  if (!event) return `the document lists no event ${String(body.type)}`;
  return violationOf(String(body.type), event.post.requestBody.content['application/json']!.schema, body);
}
