/**
 * The document's `webhooks` section (OpenAPI 3.1): every event the API sends to a receiver, as the
 * request it makes, so a receiver can be generated or typed from the document (Svix imports event
 * types from this section; Stripe and GitHub publish theirs). The catalog comes from the area that
 * sends the events (lib/webhooks/event-catalog.ts); this module knows only how OpenAPI says it.
 */
import { jsonSchemaOf } from './json-schema.ts';
import type { ComponentSchemas } from './openapi-components.ts';
import type { Schema } from './route.ts';

type JsonSchema = Record<string, unknown>;

export interface WebhookEventDocument {
  /** The event kind (`idea.submitted`): the webhook's name in the section. */
  type: string;
  summary: string;
  description: string;
  /** The JSON body the receiver gets (a named schema, so it is one component and one client type). */
  body: Schema;
  /** One body as it is sent. */
  example: unknown;
}

/** What every delivery has in common: how it is authenticated and signed, and what the receiver's answer means. */
interface WebhookDeliveryDocument {
  /** Said of every event, after its own description: retries, ordering, duplicates. */
  description: string;
  /** The request headers beside `Authorization`, each with what it holds. */
  headers: Readonly<Record<string, { description: string; example: string }>>;
  /** What each answer of the receiver causes, by status (`2XX`, `410`, `default`). */
  responses: Readonly<Record<string, string>>;
  /** The bearer credential each delivery carries in `Authorization`. */
  credential: { name: string; description: string };
  tag: string;
}

export interface WebhookCatalog {
  events: readonly WebhookEventDocument[];
  delivery: WebhookDeliveryDocument;
}

/** The section, its security scheme, and the events' schemas adopted into `components`. */
export function webhooksOf(
  components: ComponentSchemas,
  catalog: WebhookCatalog,
): { webhooks: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> } {
  const { delivery } = catalog;
  const parameters = Object.entries(delivery.headers).map(([name, header]) => ({
    name,
    in: 'header',
    required: true,
    description: header.description,
    schema: { type: 'string' },
    example: header.example,
  }));
  const responses = Object.fromEntries(Object.entries(delivery.responses).map(([status, description]) => [status, { description }]));
  const webhooks = Object.fromEntries(
    catalog.events.map((event) => [
      event.type,
      {
        post: {
          operationId: `${event.type.replace(/[._](\w)/g, (_, letter: string) => letter.toUpperCase())}Event`,
          tags: [delivery.tag],
          summary: event.summary,
          description: `${event.description}\n\n${delivery.description}`,
          security: [{ [delivery.credential.name]: [] }],
          parameters,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: components.adopt(jsonSchemaOf(event.body, 'output'), 'output'),
                examples: { sent: { summary: `A ${event.type} delivery`, value: event.example } },
              },
            },
          },
          responses,
        },
      },
    ]),
  );
  const securitySchemes = { [delivery.credential.name]: { type: 'http', scheme: 'bearer', description: delivery.credential.description } };
  return { webhooks, securitySchemes };
}
