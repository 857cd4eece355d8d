import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEASE_RULE, satisfies, type LeaseOrigin } from '../../../lib/core/domain/lease-rule.js';
import type { Payment } from '../../../lib/core/domain/payment.js';

/**
 * SPEC §3's one-attempt-at-a-time rule, written once (lib/core/domain/lease-rule.ts): the core
 * reasons with `satisfies`, and every store enforces the same clauses in its conditional write.
 */
type LeaseView = Pick<Payment, 'state' | 'leaseFrom' | 'leaseUntil' | 'leaseCredential'>;

const NOW = 1_800_000_000_000;
const origins: LeaseOrigin[] = ['STARTED', 'AWAIT_3DS'];
const payments = fc.record(
  {
    state: fc.constantFrom<Payment['state']>('STARTED', 'AWAIT_3DS', 'PROCESSING', 'AUTHORISED', 'FAILED'),
    leaseFrom: fc.constantFrom<LeaseOrigin>(...origins),
    leaseUntil: fc.integer({ min: NOW - 5, max: NOW + 5 }),
    leaseCredential: fc.constantFrom('cred-a', 'cred-b'),
  },
  { requiredKeys: ['state'] },
);

describe('lease rule', () => {
  it('a fresh lease needs the payment to be in the lease’s origin, nothing else', () => {
    expect(satisfies({ state: 'STARTED' }, LEASE_RULE.fresh('STARTED'))).toBe(true);
    expect(satisfies({ state: 'AWAIT_3DS' }, LEASE_RULE.fresh('STARTED'))).toBe(false);
    expect(satisfies({ state: 'PROCESSING', leaseFrom: 'STARTED', leaseUntil: 0, leaseCredential: 'a' }, LEASE_RULE.fresh('STARTED'))).toBe(false);
  });

  it('a takeover needs an expired lease (strictly before now), from the same origin, of the same credential', () => {
    const leased: LeaseView = { state: 'PROCESSING', leaseFrom: 'STARTED', leaseUntil: NOW - 1, leaseCredential: 'cred-a' };
    expect(satisfies(leased, LEASE_RULE.takeover('STARTED', 'cred-a', NOW))).toBe(true);
    expect(satisfies({ ...leased, leaseUntil: NOW }, LEASE_RULE.takeover('STARTED', 'cred-a', NOW))).toBe(false);
    expect(satisfies(leased, LEASE_RULE.takeover('STARTED', 'cred-b', NOW))).toBe(false);
    expect(satisfies(leased, LEASE_RULE.takeover('AWAIT_3DS', 'cred-a', NOW))).toBe(false);
  });

  it('an absent field meets no clause: a payment without lease fields can never be taken over', () => {
    expect(satisfies({ state: 'PROCESSING' }, LEASE_RULE.takeover('STARTED', 'cred-a', NOW))).toBe(false);
    expect(satisfies({ state: 'PROCESSING', leaseFrom: 'STARTED', leaseUntil: NOW - 1 }, LEASE_RULE.takeover('STARTED', 'cred-a', NOW))).toBe(false);
  });

  it('for any payment, at most one of the two transitions applies: the caller never has to OR them', () => {
    fc.assert(
      fc.property(payments, fc.constantFrom(...origins), fc.constantFrom('cred-a', 'cred-b'), (payment, from, credential) => {
        const fresh = satisfies(payment, LEASE_RULE.fresh(from));
        const takeover = satisfies(payment, LEASE_RULE.takeover(from, credential, NOW));
        expect(fresh && takeover).toBe(false);
        // …and neither applies to a settled payment.
        if (payment.state === 'AUTHORISED' || payment.state === 'FAILED') expect(fresh || takeover).toBe(false);
      }),
    );
  });
});
