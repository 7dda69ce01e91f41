/** Secrets and signatures are what the Standard Webhooks reference library expects. */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, newWebhookSecret, secretPrefixOf, signature } from '../../lib/webhooks/signing.ts';

describe('webhook secrets', () => {
  it('are whsec_ + base64 of 32 random bytes, and show a 10-character prefix', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(secretPrefixOf(secret)).toBe(secret.slice(0, 10));
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe('delivery headers', () => {
  it('carry the Bearer secret and a signature standardwebhooks verifies', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'idea.submitted', timestamp: new Date().toISOString(), data: { ideaId: 'i1', workspace: 'w' } });
    const headers = deliveryHeaders(secret, 'evt_1', body);
    expect(headers.Authorization).toBe(`Bearer ${secret}`);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('fail verification with another secret, another body or a stale timestamp', () => {
    const secret = newWebhookSecret();
    const body = '{"type":"idea.deleted"}';
    const headers = deliveryHeaders(secret, 'evt_2', body);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify('{"type":"idea.updated"}', headers)).toThrow();
    const old = deliveryHeaders(secret, 'evt_2', body, Date.now() - 10 * 60 * 1000);
    expect(() => new Webhook(secret).verify(body, old)).toThrow();
  });

  it('match the documented example of the spec (id.timestamp.body, HMAC-SHA256, base64)', () => {
    // Example from https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(signature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
