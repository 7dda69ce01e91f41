/** Routes of the Introduction area: who am I, and the API's own description. */
import * as z from 'zod/mini';
import { MODULES, PERMISSIONS } from '../platform/permissions.ts';
import { okBody, routesOf } from '../platform/route.ts';

const route = routesOf({ tag: 'Introduction', module: null, functions: 'functions/system' });

export const getMe = route({
  operationId: 'getMe',
  method: 'GET',
  path: '/me',
  handler: 'functions/me/get-me.ts',
  summary: 'Check a Developer key',
  description:
    'Confirms that the key is valid for the selected workspace, and says what it may do there: the permissions it holds and the ' +
    'modules the workspace has switched on (an operation needs both its permission and its module). Needs no permission. The MCP ' +
    'server (`POST /mcp`) reads it to list only the tools a key can use.',
  permissions: [],
  response: {
    status: 200,
    body: okBody({
      data: z.object({
        workspace: z.string(),
        authenticated: z.boolean(),
        permissions: z.array(z.enum(PERMISSIONS)).register(z.globalRegistry, { description: 'Every permission the key holds, sorted' }),
        modules: z
          .array(z.enum(MODULES))
          .register(z.globalRegistry, { description: 'The modules switched on in this workspace (`cxctl workspace modules`), sorted' }),
      }),
    }),
  },
});

export const getApiIndex = route({
  operationId: 'getApiIndex',
  method: 'GET',
  path: '',
  summary: 'Where to start: the API index',
  description:
    'Public: needs neither a workspace nor a key. Names the API and links its OpenAPI document and reference page. `GET /` redirects here.',
  auth: 'none',
  permissions: [],
  response: {
    status: 200,
    body: okBody({
      data: z.object({
        name: z.string(),
        version: z.string(),
        openapi: z.string().register(z.globalRegistry, { description: 'Path of the OpenAPI 3.1 document of this API' }),
        docs: z.string().register(z.globalRegistry, { description: "Path of this API's reference page (HTML), for a person to read" }),
      }),
    }),
  },
});

export const getOpenApi = route({
  operationId: 'getOpenApiDocument',
  method: 'GET',
  path: '/openapi.json',
  handler: 'functions/system/get-openapi.ts',
  summary: 'This API described as OpenAPI 3.1',
  description: 'Public: needs neither a workspace nor a key.',
  auth: 'none',
  permissions: [],
  response: { status: 200, body: z.looseObject({ openapi: z.string() }) },
  needs: ['openapi-document'],
});

export const getApiReference = route({
  operationId: 'getApiReference',
  method: 'GET',
  path: '/docs',
  summary: "This API's reference page (HTML)",
  description:
    'Public: needs neither a workspace nor a key. One static page rendered from this document with Redoc: ' +
    'every operation with its permissions, errors and examples.',
  auth: 'none',
  permissions: [],
  response: {
    status: 200,
    body: z.string(),
    contentType: 'text/html',
  },
  needs: ['api-reference-page'],
});
