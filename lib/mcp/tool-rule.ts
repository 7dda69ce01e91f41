/**
 * Which operations of the route manifest an AI agent gets as MCP tools: the rule, applied to every
 * route, so a new operation becomes a tool (or not) by what it is, never by being listed. An agent
 * gets the reads and the safe writes of the areas; nothing that destroys, approves, reaches
 * personal data or sets up an integration (docs/mcp.md, "Which operations are tools").
 */
import type { RouteDefinition } from '../platform/route.ts';

export type AgentAccess = { tool: 'read' | 'write' } | { withheld: string };

/**
 * Permission families no tool is made of, and why. Their operations stay on the REST API for the
 * people and integrations that hold such keys.
 */
const WITHHELD_FAMILIES: Readonly<Record<string, string>> = {
  webhooks:
    "a webhook sends the workspace's activity to an outside address and carries a signing secret: an integration a person sets up, not an agent",
  'survey-responses': "respondents' answers are personal data, and erasing them is a data-protection step: neither is an agent's",
  usage: "what the workspace used and costs is billing, for the people who pay for it, not an agent's work on the workspace",
};

/** Permissions whose operations are never a tool whatever their method: what destroys, and a reviewer's sign-off. */
const WITHHELD_ACTIONS: Readonly<Record<string, string>> = {
  delete: 'it destroys a record (`:delete` permission)',
  approve: "it is a reviewer's sign-off (`:approve` permission), a person's decision",
};

const familyOf = (permission: string) => permission.slice(0, permission.indexOf(':'));
const actionOf = (permission: string) => permission.slice(permission.indexOf(':') + 1);

/** Whether `route` is a tool (a read or a write) or withheld from agents, with the reason. */
export function agentAccessOf(route: RouteDefinition, routes: readonly RouteDefinition[]): AgentAccess {
  if ((route.auth ?? 'developer-key') !== 'developer-key') return { withheld: 'it is not an operation of a workspace under a key' };
  if (route.permissions.length === 0) return { withheld: 'it needs no permission: it says nothing about the workspace an agent works on' };
  if (route.response.contentType !== undefined) return { withheld: `it answers ${route.response.contentType}, not JSON` };
  if (route.deprecated) return { withheld: 'it is deprecated' };
  for (const permission of route.permissions) {
    const family = WITHHELD_FAMILIES[familyOf(permission)];
    if (family) return { withheld: family };
    const action = WITHHELD_ACTIONS[actionOf(permission)];
    if (action) return { withheld: action };
  }
  if (route.method === 'DELETE') return { withheld: 'it deletes (method DELETE)' };
  if (route.personal) return { withheld: "a person's vote or words, in their name: personal data, and their decision, not an agent's" };
  if (route.method === 'PUT' && routes.some((other) => other.path === route.path && other.method === 'PATCH')) {
    return { withheld: 'a full replacement (PUT) where a partial change (PATCH) of the same record does the same with less to lose' };
  }
  // POSTs that only need to read (validation, simulation) change nothing: they are reads.
  return { tool: route.permissions.every((permission) => actionOf(permission) === 'read') ? 'read' : 'write' };
}
