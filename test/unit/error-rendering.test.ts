import { describe, expect, it } from 'vitest';
import { ConflictError, RateLimitedError, ValidationError } from '../../lib/platform/errors.ts';
import { renderError } from '../../lib/platform/http/middleware/http-envelope.ts';

describe('renderError', () => {
  it('renders a typed error as the spec envelope with its status and headers', () => {
    expect(renderError(new ConflictError('version_conflict', 'changed'))).toEqual({
      status: 409,
      body: { ok: false, error: 'version_conflict', message: 'changed' },
      headers: {},
    });
    expect(renderError(new RateLimitedError(7)).headers).toEqual({ 'Retry-After': '7' });
  });

  it('lists every validation issue', () => {
    const { body } = renderError(
      new ValidationError('invalid_body', [
        { path: 'body.title', message: 'too long' },
        { path: 'body.module', message: 'unknown' },
      ]),
    );
    expect(body).toMatchObject({ error: 'invalid_body', message: 'body.title: too long' });
    expect(body.issues).toHaveLength(2);
  });

  it('renders the details an error carries beside the envelope, never over it', () => {
    const changes = [{ kind: 'option_removed', questionId: 'plan' }];
    expect(renderError(new ConflictError('breaking_changes', 'acknowledge them', { changes })).body).toEqual({
      ok: false,
      error: 'breaking_changes',
      message: 'acknowledge them',
      changes,
    });
    expect(() => new ConflictError('version_conflict', 'y', { ok: true })).toThrow(TypeError);
    expect(() => new ConflictError('version_conflict', 'y', { message: 'forged' })).toThrow(TypeError);
  });

  it('turns anything unexpected into a 502 that reveals nothing', () => {
    const secret = new Error('connect ECONNREFUSED 10.0.0.5:8000 at Socket.internal (/var/task/index.js:1:1)');
    const rendered = renderError(secret);
    expect(rendered.status).toBe(502);
    expect(rendered.body).toEqual({ ok: false, error: 'internal_error', message: 'The service could not complete the request' });
    expect(JSON.stringify(rendered.body)).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|index\.js/);
  });
});
