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
  // and the merchant's other origins (staging, loopback) are nothing a shopper should read.
  const { redirectOrigins: _forTheMerchantOnly, processor: _andNeitherThis, ...forThePage } = view;
  return forThePage;
}

/**
 * 4.7: create or replace a merchant and its outlets. No transactions: outlets (and the
 * processor account) are checked first, the merchant written, then each outlet and the
 * processor account claimed with a conditional write, and outlets (an account) no longer listed
 * released. A retry of the same request converges. A processor account belongs to one merchant:
 * its notifications are matched to the merchant by the account.
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
  const account = accountOf(input);
  const accountOwner = account && (await deps.config.processorAccountOwner(account.name, account.account, { consistent: true }));
  if (accountOwner && accountOwner !== merchantRef) throw new OnboardingConflictError('This processor account belongs to another merchant.');
  const merchant: MerchantConfig = { merchantRef, ...input, updatedAt: new Date(deps.now()).toISOString() };
  try {
    if (account) await deps.config.claimProcessorAccount(account.name, account.account, merchantRef);
    await deps.config.putMerchant(merchant);
    await Promise.all(input.outlets.map((outletId) => deps.config.putOutlet({ outletId, merchantRef, tenantRef: input.tenantRef })));
  } catch (error) {
    if (error instanceof StoreConflictError)
      throw new OnboardingConflictError('A concurrent onboarding changed this merchant or its outlets.', { cause: error });
    throw error;
  }
  const released = (previous?.outlets ?? []).filter((outletId) => !input.outlets.includes(outletId));
  await Promise.all(released.map((outletId) => deps.config.deleteOutlet(outletId, merchantRef)));
  const before = previous && accountOf(previous);
  if (before && (before.name !== account?.name || before.account !== account.account)) {
    await deps.config.releaseProcessorAccount(before.name, before.account, merchantRef);
  }
  return merchantView(deps, merchant);
}

/** The processor account a merchant holds, if its processor has one. */
function accountOf(merchant: Pick<MerchantConfig, 'processor'>): { name: string; account: string } | undefined {
  const processor = merchant.processor;
  return processor?.account ? { name: processor.name, account: processor.account } : undefined;
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
    // Which processor and account only: never where its secrets are.
    ...(merchant.processor
      ? { processor: { name: merchant.processor.name, ...(merchant.processor.account ? { account: merchant.processor.account } : {}) } }
      : {}),
  };
}
