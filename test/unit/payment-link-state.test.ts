import { describe, expect, it } from 'vitest';
import { linkExpiry, linkState } from '../../lib/core/domain/payment-link.js';

/** SPEC 4.14: a link's state, derived when read. Money taken is never hidden behind CANCELLED or EXPIRED. */
const DAY = 86_400_000;
const now = Date.parse('2026-11-23T12:00:00.000Z');
const future = new Date(now + DAY).toISOString();
const past = new Date(now - 1000).toISOString();

describe('linkState', () => {
  it('ACTIVE while unpaid, not cancelled and before expiresAt', () => {
    expect(linkState({ expiresAt: future }, false, now)).toBe('ACTIVE');
  });

  it('EXPIRED from expiresAt on (inclusive), CANCELLED once cancelled', () => {
    expect(linkState({ expiresAt: new Date(now).toISOString() }, false, now)).toBe('EXPIRED');
    expect(linkState({ expiresAt: future, cancelledAt: past }, false, now)).toBe('CANCELLED');
  });

  it('PAID wins over EXPIRED: a link paid before it expired still reads PAID afterwards', () => {
    expect(linkState({ expiresAt: past }, true, now)).toBe('PAID');
  });

  it('PAID wins over CANCELLED: money taken is reported, whatever happened to the link since', () => {
    expect(linkState({ expiresAt: future, cancelledAt: past }, true, now)).toBe('PAID');
    expect(linkState({ expiresAt: past, cancelledAt: past }, true, now)).toBe('PAID');
  });
});

describe('linkExpiry', () => {
  it('defaults to 7 days, accepts up to exactly 30 days, refuses later or not in the future', () => {
    expect(linkExpiry(undefined, now)).toEqual({ expiresAt: new Date(now + 7 * DAY).toISOString() });
    expect(linkExpiry(new Date(now + 30 * DAY).toISOString(), now)).toEqual({ expiresAt: new Date(now + 30 * DAY).toISOString() });
    expect(linkExpiry(new Date(now + 30 * DAY + 1).toISOString(), now)).toEqual({ problem: 'too-far' });
    expect(linkExpiry(new Date(now).toISOString(), now)).toEqual({ problem: 'past' });
  });
});
