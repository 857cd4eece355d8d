import { describe, expect, it } from 'vitest';
import type { Principal } from '../../lib/core/auth/principal.js';
import { coversMerchantConfig, coversWholeMerchant } from '../../lib/core/auth/scope.js';

/** SPEC §1, 4.15: merchant-wide resources are never reached through one outlet. */
const merchant = { tenantRef: 't-1', merchantRef: 'm-1', outlets: ['o-a', 'o-b'] };
const tenant = (claims: { merchantRef?: string; outletIds?: string[]; tenantRef?: string } = {}): Principal => ({
  kind: 'tenant',
  subject: 's',
  tenantRef: claims.tenantRef ?? 't-1',
  merchantRef: claims.merchantRef,
  outletIds: claims.outletIds ? new Set(claims.outletIds) : undefined,
  permissions: new Set(),
});

describe('coversWholeMerchant', () => {
  it('covers with a platform token, a tenant token, one narrowed to the merchant, and one naming every outlet it has', () => {
    expect(coversWholeMerchant({ kind: 'platform', subject: 'p', permissions: new Set() }, merchant)).toBe(true);
    expect(coversWholeMerchant(tenant(), merchant)).toBe(true);
    expect(coversWholeMerchant(tenant({ merchantRef: 'm-1' }), merchant)).toBe(true);
    expect(coversWholeMerchant(tenant({ outletIds: ['o-b', 'o-a'] }), merchant)).toBe(true);
    expect(coversWholeMerchant(tenant({ outletIds: ['o-a', 'o-b', 'o-elsewhere'] }), merchant)).toBe(true);
  });

  it('does not cover through some of its outlets, none of them, another tenant, another merchant', () => {
    for (const principal of [
      tenant({ outletIds: ['o-a'] }),
      tenant({ outletIds: ['o-b', 'o-elsewhere'] }),
      tenant({ outletIds: [] }),
      tenant({ merchantRef: 'm-1', outletIds: ['o-a'] }),
      tenant({ merchantRef: 'm-2', outletIds: ['o-a', 'o-b'] }),
      tenant({ tenantRef: 't-2' }),
    ]) {
      expect(coversWholeMerchant(principal, merchant)).toBe(false);
    }
  });

  it('an outlet-narrowed token never covers a merchant without outlets (it names none of them)', () => {
    expect(coversWholeMerchant(tenant({ outletIds: ['o-a'] }), { ...merchant, outlets: [] })).toBe(false);
    expect(coversWholeMerchant(tenant(), { ...merchant, outlets: [] })).toBe(true);
  });

  it('a hosted-session token is one order, never the whole merchant (4.1 it may read)', () => {
    const session: Principal = {
      kind: 'session',
      tenantRef: 't-1',
      merchantRef: 'm-1',
      outletId: 'o-a',
      orderRef: 'r-1',
      expiresAt: 0,
      permissions: new Set(),
    };
    expect(coversWholeMerchant(session, merchant)).toBe(false);
    expect(coversMerchantConfig(session, merchant)).toBe(true);
  });

  it('differs from 4.1 exactly for a token narrowed to some of the merchant’s outlets', () => {
    const oneOutlet = tenant({ outletIds: ['o-a'] });
    expect(coversMerchantConfig(oneOutlet, merchant)).toBe(true);
    expect(coversWholeMerchant(oneOutlet, merchant)).toBe(false);
  });
});
