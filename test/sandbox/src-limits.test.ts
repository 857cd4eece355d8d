import { randomInt } from 'node:crypto';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient } from '../../lib/composition/aws.js';
import { DEFAULT_SRC_LIMITS, limitKey, SrcRateLimiter, type SrcLimits } from '../../lib/adapters/sandbox/src/rate-limits.js';
import { SrcSessionStore } from '../../lib/adapters/sandbox/src/session-store.js';
import { limitedSrcNetwork } from '../support/limited-src-network.js';
import { DPA, randomId } from './src-client.js';

/**
 * The sandbox network's abuse limits (docs/sandbox-src-contract.md, "Limits"). Each test runs
 * its own network with small limits and its own clock, set to a window no other test uses
 * (the counters live in the shared Sessions table, keyed by window): nothing waits for time.
 */
function network(limits: Partial<SrcLimits>) {
  const { clock, post } = limitedSrcNetwork(limits);
  const init = async (sourceIp?: string) => {
    const response = await post('/init', DPA, sourceIp);
    expect(response.status, response.raw).toBe(200);
    return response.body.sessionId as string;
  };
  const lookup = (sessionId: string, value = 'returning@example.com', type: 'EMAIL' | 'MOBILE_NUMBER' = 'EMAIL') =>
    post('/identity-lookup', { sessionId, identity: { type, value } });
  const validate = (sessionId: string, otp: string) => post('/otp/validate', { sessionId, otp });
  return { clock, post, init, lookup, validate };
}

const reason = (response: { body: { error?: { reason?: string } } }) => response.body.error?.reason;

describe('OTP attempts', () => {
  it('a new identity lookup or a sign-out in the same session does not give attempts back', async () => {
    const { init, lookup, validate, post } = network({});
    const sessionId = await init();
    await lookup(sessionId);
    expect((await validate(sessionId, '000000')).body.error).toMatchObject({ reason: 'OTP_INVALID', remainingAttempts: 2 });
    expect((await lookup(sessionId)).body.consumerPresent).toBe(true);
    expect((await validate(sessionId, '111111')).body.error).toMatchObject({ reason: 'OTP_INVALID', remainingAttempts: 1 });
    expect((await post('/sign-out', { sessionId })).status).toBe(200);
    expect((await lookup(sessionId, '+971500000002', 'MOBILE_NUMBER')).body.consumerPresent).toBe(true);
    const third = await validate(sessionId, '222222');
    expect([third.status, reason(third)]).toEqual([403, 'RETRIES_EXCEEDED']);
  });

  it('are limited per consumer across sessions: then every code is 429 OTP_ATTEMPTS_EXCEEDED until the window ends', async () => {
    const { init, lookup, validate, post, clock } = network({ otpFailuresPerConsumer: { max: 4, windowSeconds: 900 } });
    for (let session = 0; session < 2; session += 1) {
      const sessionId = await init();
      await lookup(sessionId);
      for (const code of ['000000', '111111']) expect(reason(await validate(sessionId, code))).toBe('OTP_INVALID');
    }
    const fresh = await init();
    await lookup(fresh);
    for (const code of ['333333', '123456']) {
      const refused = await validate(fresh, code);
      expect([refused.status, reason(refused)]).toEqual([429, 'OTP_ATTEMPTS_EXCEEDED']);
      expect(refused.body.error.retryAfterSeconds).toBe(900);
      expect(refused.headers['Retry-After']).toBe('900');
      expect(refused.raw).not.toMatch(/returning|example\.com/);
    }
    // Another consumer is not affected.
    const other = await init();
    await lookup(other, '+971500000002', 'MOBILE_NUMBER');
    expect(reason(await validate(other, '444444'))).toBe('OTP_INVALID');
    // The refused session spent none of its own attempts; the next window lets the consumer in.
    clock.now += 900_000;
    expect((await post('/otp/resend', { sessionId: fresh })).status).toBe(200);
    expect((await validate(fresh, '123456')).status).toBe(200);
  });

  it('concurrent wrong codes in many sessions never spend more than the consumer allows (conditional writes)', async () => {
    const { init, lookup, validate } = network({ otpFailuresPerConsumer: { max: 4, windowSeconds: 900 } });
    const sessions = await Promise.all(Array.from({ length: 8 }, () => init()));
    await Promise.all(sessions.map((sessionId) => lookup(sessionId)));
    const results = await Promise.all(sessions.map((sessionId) => validate(sessionId, '555555')));
    expect(results.filter((r) => reason(r) === 'OTP_INVALID')).toHaveLength(4);
    expect(results.filter((r) => r.status === 429 && reason(r) === 'OTP_ATTEMPTS_EXCEEDED')).toHaveLength(4);
  });
});

describe('identity lookups', () => {
  it('are limited per session (429 LOOKUP_LIMIT), and the refusal changes nothing', async () => {
    const { init, lookup, validate } = network({ lookupsPerSession: 3 });
    const sessionId = await init();
    expect((await lookup(sessionId, 'someone@example.com')).body).toEqual({ consumerPresent: false });
    expect((await lookup(sessionId, 'new@example.com')).body.consumerPresent).toBe(true);
    expect((await lookup(sessionId)).body.consumerPresent).toBe(true);
    const fourth = await lookup(sessionId, 'new@example.com');
    expect([fourth.status, reason(fourth)]).toEqual([429, 'LOOKUP_LIMIT']);
    expect((await validate(sessionId, '123456')).body.consumer).toEqual({ maskedEmail: 'r***@example.com', maskedMobileNumber: '+971*****0001' });
  });

  it('are limited per consumer across sessions; unknown sessions spend nothing; other identities go on', async () => {
    const { init, lookup } = network({ lookupsPerConsumer: { max: 2, windowSeconds: 600 } });
    for (let i = 0; i < 3; i += 1) expect(reason(await lookup(randomId()))).toBe('SESSION_NOT_FOUND');
    const [a, b, c] = [await init(), await init(), await init()];
    expect((await lookup(a)).status).toBe(200);
    expect((await lookup(b, '+971 50 000 0001', 'MOBILE_NUMBER')).status).toBe(200);
    const refused = await lookup(c);
    expect([refused.status, reason(refused)]).toEqual([429, 'LOOKUP_LIMIT']);
    expect(refused.body.error.retryAfterSeconds).toBe(600);
    expect(refused.headers['Retry-After']).toBe('600');
    expect((await lookup(c, 'new@example.com')).body.consumerPresent).toBe(true);
    expect((await lookup(c, 'nobody@example.com')).body).toEqual({ consumerPresent: false });
  });
});

describe('session creation', () => {
  it('is limited per caller IP per window (429 SESSION_LIMIT); the counter is a hashed, expiring item', async () => {
    const { init, post, clock } = network({ sessionsPerClient: { max: 3, windowSeconds: 60 } });
    const ip = `203.0.113.${randomInt(1, 250)}`;
    for (let i = 0; i < 3; i += 1) await init(ip);
    const refused = await post('/init', DPA, ip);
    expect([refused.status, reason(refused)]).toEqual([429, 'SESSION_LIMIT']);
    expect(refused.headers['Retry-After']).toBe('60');
    expect(refused.raw).not.toContain(ip);
    await init('192.0.2.200'); // another client

    const windowStart = Math.floor(clock.now / 1000);
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: process.env.SANDBOX_TABLE, Key: { pk: limitKey('sessions', ip, windowStart) }, ConsistentRead: true }),
    );
    expect(Item).toMatchObject({ count: 3, kind: 'sandbox-src-limit', expiresAt: windowStart + 60 + 60 });
    expect(JSON.stringify(Item)).not.toContain(ip);

    clock.now += 60_000;
    await init(ip);
  });

  it('defaults: documented values', () => {
    expect(DEFAULT_SRC_LIMITS).toEqual({
      otpFailuresPerConsumer: { max: 10, windowSeconds: 900 },
      lookupsPerConsumer: { max: 60, windowSeconds: 600 },
      lookupsPerSession: 10,
      sessionsPerClient: { max: 120, windowSeconds: 60 },
    });
  });
});

describe('session creation: one client is one IPv4 address or one IPv6 /64', () => {
  /** A network with its own limits whose /init answers are returned as they are (no status check). */
  function srcNetwork(limits: Partial<SrcLimits>) {
    const { post } = limitedSrcNetwork(limits);
    const init = (sourceIp: string) => post('/init', DPA, sourceIp);
    return { init };
  }

  it('an IPv4 client is limited to its session budget', async () => {
    const { init } = srcNetwork({ sessionsPerClient: { max: 3, windowSeconds: 60 } });
    const ip = `198.51.100.${randomInt(1, 250)}`;
    for (let i = 0; i < 3; i += 1) expect((await init(ip)).status).toBe(200);
    expect((await init(ip)).status).toBe(429);
  });

  // One IPv6 client owns at least a /64 (2^64 addresses): counted by its full address, it would
  // get a fresh budget with every address it picks.
  it('one IPv6 client (one /64) has one budget: every address of its /64 counts against it', async () => {
    const { init } = srcNetwork({ sessionsPerClient: { max: 3, windowSeconds: 60 } });
    const prefix = `2001:db8:${randomInt(0, 0xffff).toString(16)}:${randomInt(0, 0xffff).toString(16)}`;
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i += 1) statuses.push((await init(`${prefix}::${i.toString(16)}`)).status);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
  });
});

describe('reads that must see the write just made', () => {
  it('SRC sessions and limit counters are read with ConsistentRead', async () => {
    const inputs: Record<string, unknown>[] = [];
    const client = { send: async (command: { input: Record<string, unknown> }) => (inputs.push(command.input), {}) } as unknown as DynamoDBDocumentClient;
    await new SrcSessionStore(client, 't').get('src_x', Date.now());
    await new SrcRateLimiter(client, 't').check('otp-failures', 'returning', { max: 1, windowSeconds: 60 }, Date.now());
    expect(inputs).toHaveLength(2);
    for (const input of inputs) expect(input.ConsistentRead).toBe(true);
  });
});
