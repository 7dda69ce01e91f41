import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError } from '../../lib/platform/errors.ts';
import { workspaceSlugFrom } from '../../lib/platform/http/workspace-host.ts';

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected an error');
}

describe('workspaceSlugFrom', () => {
  afterEach(() => {
    delete process.env.WORKSPACE_DOMAIN;
  });

  it('reads the workspace host from X-Service-Workspace-Host, ignoring case and port', () => {
    process.env.WORKSPACE_DOMAIN = 'portal.example.com';
    expect(workspaceSlugFrom({ 'x-service-workspace-host': 'Acme.Portal.Example.com:443' })).toBe('acme');
  });

  it('accepts the bare slug in the header', () => {
    expect(workspaceSlugFrom({ 'x-service-workspace-host': 'acme' })).toBe('acme');
  });

  it('falls back to the Host header on a workspace host', () => {
    process.env.WORKSPACE_DOMAIN = 'portal.example.com';
    expect(workspaceSlugFrom({ host: 'acme.portal.example.com' })).toBe('acme');
  });

  it('prefers the header over the Host', () => {
    expect(workspaceSlugFrom({ host: 'other.localhost', 'x-service-workspace-host': 'acme.localhost' })).toBe('acme');
  });

  it('answers 400 missing_workspace_host when neither selects a workspace', () => {
    const error = errorOf(() => workspaceSlugFrom({ host: 'api.example.com' }));
    expect([error.status, error.code]).toEqual([400, 'missing_workspace_host']);
  });

  it('answers 400 invalid_header for a value that is neither a workspace host of this domain nor a slug', () => {
    process.env.WORKSPACE_DOMAIN = 'portal.example.com';
    for (const host of [
      'acme.evil.com',
      'a.b.portal.example.com',
      'bad_slug',
      '..',
      'café.portal.example.com',
      'portal.example.com',
      'x'.repeat(10_240),
    ]) {
      const error = errorOf(() => workspaceSlugFrom({ 'x-service-workspace-host': host }));
      expect([error.status, error.code], host.slice(0, 40)).toEqual([400, 'invalid_header']);
      expect(error.message).not.toContain('x'.repeat(100));
    }
  });

  it('takes the shared edge api.<domain> for no workspace: a call there must name one in the header', () => {
    process.env.WORKSPACE_DOMAIN = 'portal.example.com';
    const error = errorOf(() => workspaceSlugFrom({ host: 'api.portal.example.com' }));
    expect([error.status, error.code]).toEqual([400, 'missing_workspace_host']);
    expect(workspaceSlugFrom({ host: 'api.portal.example.com', 'x-service-workspace-host': 'acme.portal.example.com' })).toBe('acme');
  });
});
