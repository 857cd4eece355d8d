import { StoreConflictError } from '../ports/store-conflict.js';
import { merchantInScope } from './merchants.js';
import type { Principal } from '../auth/principal.js';
import type { MerchantConfig } from '../domain/merchant.js';
import { OnboardingConflictError } from '../errors.js';

import { loadEnablement } from './enablement.js';
import type { ConfigStore } from '../ports/config-store.js';

export interface MerchantConfigDeps {
  config: ConfigStore;
  keys: { currentKid(): Promise<string> };
  now: () => number;
}

/** The 4.7 body: the whole configuration but the key and the timestamp. */
export type OnboardingInput = Omit<MerchantConfig, 'merchantRef' | 'updatedAt'>;

/** 4.1: the merchant's configuration with effective enablement and the current key id. */
export async function readMerchantConfig(deps: MerchantConfigDeps, principal: Principal, merchantRef: string) {
  const view = await merchantView(deps, await merchantInScope(deps.config, principal, merchantRef));
  if (principal.kind !== 'session') return view;
  // The page (a browser-held session) needs no allow-list: its way back is in its own bootstrap,
  // and the merchant's other origins (staging, loopback) are nothing a shopper should read; nor
  // the acquirer and directory-server ids of its 3DS requestor profile.
  const { redirectOrigins: _forTheMerchantOnly, threeDsRequestor: _notForThePage, ...forThePage } = view;
  return forThePage;
}

/**
 * 4.7: create or replace a merchant and its outlets. No transactions: outlets are checked
 * first, the merchant written, then each outlet claimed with a conditional write, and
 * outlets no longer listed released. A retry of the same request converges.
 */
export async function onboardMerchant(deps: MerchantConfigDeps, merchantRef: string, input: OnboardingInput) {
  // Read-modify-write (outlets released against the previous list): consistent reads.
  const previous = await deps.config.getMerchant(merchantRef, { consistent: true });
  if (previous && previous.tenantRef !== input.tenantRef) {
    throw new OnboardingConflictError('This merchant belongs to another tenant.');
  }
  const owners = await Promise.all(input.outlets.map((outletId) => deps.config.getOutlet(outletId, { consistent: true })));
  if (owners.some((outlet) => outlet && outlet.merchantRef !== merchantRef)) {
    throw new OnboardingConflictError('An outlet in the list belongs to another merchant.');
  }
  const merchant: MerchantConfig = { merchantRef, ...input, updatedAt: new Date(deps.now()).toISOString() };
  try {
    await deps.config.putMerchant(merchant);
    await Promise.all(input.outlets.map((outletId) => deps.config.putOutlet({ outletId, merchantRef, tenantRef: input.tenantRef })));
  } catch (error) {
    if (error instanceof StoreConflictError)
      throw new OnboardingConflictError('A concurrent onboarding changed this merchant or its outlets.', { cause: error });
    throw error;
  }
  const released = (previous?.outlets ?? []).filter((outletId) => !input.outlets.includes(outletId));
  await Promise.all(released.map((outletId) => deps.config.deleteOutlet(outletId, merchantRef)));
  return merchantView(deps, merchant);
}

async function merchantView(deps: MerchantConfigDeps, merchant: MerchantConfig) {
  const [enablement, encryptionKeyId] = await Promise.all([loadEnablement(deps.config, merchant.tenantRef, merchant), deps.keys.currentKid()]);
  return {
    merchantRef: merchant.merchantRef,
    tenantRef: merchant.tenantRef,
    dpaId: merchant.dpaId,
    dpaClientId: merchant.dpaClientId,
    dpaName: merchant.dpaName,
    cardBrands: merchant.cardBrands,
    locale: merchant.locale,
    environment: merchant.environment,
    encryptionKeyId,
    clickToPayEnabled: enablement.clickToPay,
    directWalletEnabled: enablement.directWallet,
    threeDsPolicy: merchant.threeDsPolicy,
    redirectOrigins: merchant.redirectOrigins ?? [],
    ...(merchant.threeDsRequestor ? { threeDsRequestor: merchant.threeDsRequestor } : {}),
  };
}
