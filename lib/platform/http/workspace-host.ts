/**
 * Which workspace a request is for. `X-Service-Workspace-Host` wins (the shared edge); otherwise
 * the Host header, when the API is called on a workspace host `<slug>.<WORKSPACE_DOMAIN>`.
 * The header accepts the full workspace host (what cxctl prints) or the bare slug; anything else
 * is 400 `invalid_header`, the first check of the chain (README, Order of checks).
 */
import { config } from '../config.ts';
import { BadRequestError, ValidationError } from '../errors.ts';

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The shared edge's host label (`api.<WORKSPACE_DOMAIN>`, cdk/constructs/custom-domains.ts): it is no
 * workspace, so a call there must name one in `X-Service-Workspace-Host`, and no workspace may take it.
 */
export const SHARED_EDGE_LABEL = 'api';

function stripPort(host: string): string {
  return host.replace(/:\d+$/, '');
}

function slugOfWorkspaceHost(host: string, domain: string): string | null {
  const suffix = `.${domain}`;
  if (!host.endsWith(suffix)) return null;
  const slug = host.slice(0, -suffix.length);
  return SLUG_PATTERN.test(slug) && slug !== SHARED_EDGE_LABEL ? slug : null;
}

export function workspaceSlugFrom(headers: Record<string, string | undefined>): string {
  const domain = config.workspaceDomain();
  const selected = headers['x-service-workspace-host']?.trim().toLowerCase();
  if (selected !== undefined && selected !== '') {
    const host = stripPort(selected);
    const slug = slugOfWorkspaceHost(host, domain) ?? (SLUG_PATTERN.test(host) ? host : null);
    // Malformed is a 400 before the key check, like any other bad header: it names no workspace,
    // so it says nothing about which exist. The value is not echoed (it may be 10 KB of anything).
    if (!slug) {
      throw new ValidationError('invalid_header', [
        { path: 'header.X-Service-Workspace-Host', message: `must be <slug>.${domain} or a bare workspace slug` },
      ]);
    }
    return slug;
  }
  const host = headers.host ? stripPort(headers.host.trim().toLowerCase()) : '';
  const slug = slugOfWorkspaceHost(host, domain);
  if (slug) return slug;
  throw new BadRequestError(
    'missing_workspace_host',
    'Send the X-Service-Workspace-Host header (or call the API on your workspace host) to select a workspace',
  );
}

export function workspaceHostOf(slug: string): string {
  return `${slug}.${config.workspaceDomain()}`;
}
