import { createHmac, randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { isSigningSecret, newSigningSecret, signatureHeaders } from '../../lib/core/webhooks/signing.js';

/** SPEC §4.15: Standard Webhooks headers; during a rotation both secrets sign every delivery. */
const body = JSON.stringify({ id: 'evt_1', type: 'payment.captured', createdAt: '2026-01-01T00:00:00Z', data: { amount: { value: 100 } } });
const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';

describe('signatureHeaders', () => {
  it('produces headers that standardwebhooks verifies', () => {
    const secret = newSigningSecret();
    const headers = signatureHeaders({ id, timestamp: new Date(), body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('signs with every secret during a rotation: the current and the previous both verify', () => {
    const current = newSigningSecret();
    const previous = newSigningSecret();
    const headers = signatureHeaders({ id, timestamp: new Date(), body, secrets: [current, previous] });
    const signatures = headers['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/); // one space, nothing else
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    // Current first: a receiver reading only the first signature uses the current secret.
    expect(signatures[0]).toBe(signatureHeaders({ id, timestamp: new Date(), body, secrets: [current] })['webhook-signature']);
  });

  it('a tampered body, id or timestamp fails verification', () => {
    const secret = newSigningSecret();
    const headers = signatureHeaders({ id, timestamp: new Date(), body, secrets: [secret] });
    const verifier = new Webhook(secret);
    expect(() => verifier.verify(body.replace('100', '1000'), headers)).toThrow(WebhookVerificationError);
    expect(() => verifier.verify(body, { ...headers, 'webhook-id': 'msg_other' })).toThrow(WebhookVerificationError);
    const earlier = String(Number(headers['webhook-timestamp']) - 1);
    expect(() => verifier.verify(body, { ...headers, 'webhook-timestamp': earlier })).toThrow(WebhookVerificationError);
  });

  it('the timestamp header is whole epoch seconds, and the HMAC is over "id.seconds.body"', () => {
    const secret = newSigningSecret();
    const timestamp = new Date('2026-03-04T05:06:07.890Z');
    const headers = signatureHeaders({ id, timestamp, body, secrets: [secret] });
    expect(headers['webhook-timestamp']).toBe('1772600767');
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.1772600767.${body}`).digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('refuses an empty secret list and malformed input, without echoing a secret', () => {
    const input = { id, timestamp: new Date(), body };
    expect(() => signatureHeaders({ ...input, secrets: [] })).toThrow(/at least one/);
    const short = `whsec_${randomBytes(16).toString('base64')}`;
    for (const bad of ['', 'whsec_', short, `whsec_${randomBytes(65).toString('base64')}`, randomBytes(32).toString('base64'), 'whsec_!!!!', 'whsec_abc']) {
      expect(() => signatureHeaders({ ...input, secrets: [newSigningSecret(), bad] })).toThrow(
        expect.objectContaining({ message: expect.stringMatching(/^webhook signing secret #1 /) }),
      );
    }
    try {
      signatureHeaders({ ...input, secrets: [short] });
    } catch (error) {
      expect((error as Error).message).not.toContain(short.slice(6));
    }
    for (const badId of ['', 'msg 1', 'msg.1', 'msg\n1', 'x'.repeat(257)]) {
      expect(() => signatureHeaders({ ...input, id: badId, secrets: [newSigningSecret()] })).toThrow(/webhook id/);
    }
    expect(() => signatureHeaders({ ...input, timestamp: new Date(Number.NaN), secrets: [newSigningSecret()] })).toThrow(/timestamp/);
  });
});

describe('newSigningSecret', () => {
  it('makes distinct whsec_ secrets of 32 bytes', () => {
    const a = newSigningSecret();
    expect(isSigningSecret(a)).toBe(true);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(a);
  });
});
