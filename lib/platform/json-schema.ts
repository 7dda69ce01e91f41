/**
 * How the API renders a zod schema as JSON Schema wherever it publishes one: the OpenAPI document
 * (lib/platform/openapi.ts) and the MCP server's tool inputs (lib/mcp/tools.ts) say the same thing
 * about the same schema.
 */
import * as z from 'zod/mini';

type JsonSchema = Record<string, unknown>;

const isEmptySchema = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/** zod's `override` hook of `toJSONSchema`, for every schema the API publishes. */
function publishedJsonSchema(ctx: { jsonSchema: unknown }): void {
  const json = ctx.jsonSchema as JsonSchema;
  // zod renders a tuple as `prefixItems` with `items: false`; Spectral wants `items` to be a
  // schema, so it states the elements' common type (maxItems still says nothing follows them).
  if (json.type === 'array' && Array.isArray(json.prefixItems) && (json.items === undefined || json.items === false)) {
    const types = new Set((json.prefixItems as JsonSchema[]).map((item) => item.type));
    json.items = types.size === 1 ? { type: [...types][0] } : {};
  }
  // A record of any values (`customerContext`) is rendered `additionalProperties: {}`: an empty schema,
  // which schema linters flag as constraining nothing (the MCP Inspector's --strict). `true` means the
  // same (JSON Schema 2020-12 §4.3.2) and says it is meant; left out instead, openapi-typescript would
  // type the object as holding nothing.
  if (isEmptySchema(json.additionalProperties)) json.additionalProperties = true;
  // Query integers are validated as digit strings but documented as the integers they are,
  // default included (zod renders the string the parser starts from).
  if (json.type === 'integer') {
    delete json.pattern;
    if (typeof json.default === 'string' && /^\d+$/.test(json.default)) json.default = Number(json.default);
  }
}

/** `schema` as a self-contained JSON Schema (draft 2020-12; named shapes under its own `$defs`). */
export function jsonSchemaOf(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', override: publishedJsonSchema }) as JsonSchema;
  delete json.$schema;
  return json;
}
