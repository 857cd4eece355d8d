import { StoreConflictError } from '../ports/store-conflict.js';
import { merchantInScope } from './merchants.js';
import type { Principal } from '../auth/principal.js';
import type { MerchantConfig } from '../domain/merchant.js';
import { OnboardingConflictError } from '../errors.js';

import { loadEnablement } from './enablement.js';
import { withKeptSecrets } from './processor-secrets.js';
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
  // and the merchant's other origins (staging, loopback), its outlets, its processor and the
  // acquirer and directory-server ids of its 3DS requestor profile are nothing a shopper should read.
  const { redirectOrigins: _origins, outlets: _outlets, processor: _processor, threeDsRequestor: _requestor, ...forThePage } = view;
  return forThePage;
}

/**
 * 4.7: create or replace a merchant and its outlets. No transactions: outlets and the processor
 * account are checked first, then each claimed with a conditional write, and only then is the
 * merchant written, so a merchant record never lists an outlet (or an account) another merchant
 * owns (the loser of two concurrent onboardings of one outlet gives back what it claimed and
 * gets 409, its record unchanged: a token narrowed to that outlet never covers it). Outlets and
 * an account no longer listed are released last. A retry of the same request converges. A
 * processor account belongs to one merchant: its notifications are matched to the merchant by it.
 */
export async function onboardMerchant(deps: MerchantConfigDeps, merchantRef: string, request: OnboardingInput) {
  // Read-modify-write (outlets released against the previous list): consistent reads.
  const previous = await deps.config.getMerchant(merchantRef, { consistent: true });
  if (previous && previous.tenantRef !== request.tenantRef) {
    throw new OnboardingConflictError('This merchant belongs to another tenant.');
  }
  const processor = withKeptSecrets(request.processor, previous?.processor);
  const input: OnboardingInput = processor ? { ...request, processor } : request;
  const owners = await Promise.all(input.outlets.map((outletId) => deps.config.getOutlet(outletId, { consistent: true })));
  if (owners.some((outlet) => outlet && outlet.merchantRef !== merchantRef)) {
    throw new OnboardingConflictError('An outlet in the list belongs to another merchant.');
  }
  const account = accountOf(input);
  const accountOwner = account && (await deps.config.processorAccountOwner(account.name, account.account, { consistent: true }));
  if (accountOwner && accountOwner !== merchantRef) throw new OnboardingConflictError('This processor account belongs to another merchant.');
  const merchant: MerchantConfig = { merchantRef, ...input, updatedAt: new Date(deps.now()).toISOString() };
  const claimedNow = input.outlets.filter((_, index) => owners[index] === undefined);
  try {
    if (account) await deps.config.claimProcessorAccount(account.name, account.account, merchantRef);
    await Promise.all(input.outlets.map((outletId) => deps.config.putOutlet({ outletId, merchantRef, tenantRef: input.tenantRef })));
    await deps.config.putMerchant(merchant);
  } catch (error) {
    // Give back what this request claimed (a claim that lost changed nothing): never a merchant
    // half-written over another's outlet. A release that fails leaves a claim the retry re-takes.
    const giveBack = claimedNow.map((outletId) => deps.config.deleteOutlet(outletId, merchantRef));
    if (account && !accountOwner) giveBack.push(deps.config.releaseProcessorAccount(account.name, account.account, merchantRef));
    await Promise.all(giveBack).catch(() => undefined);
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
    // With the outlets, the merchant's side reads back a body 4.7 takes as it is (GET-modify-PUT).
    outlets: merchant.outlets,
    redirectOrigins: merchant.redirectOrigins ?? [],
    // Which processor and account only: never where its secrets are.
    ...(merchant.processor
      ? { processor: { name: merchant.processor.name, ...(merchant.processor.account ? { account: merchant.processor.account } : {}) } }
      : {}),
    ...(merchant.threeDsRequestor ? { threeDsRequestor: merchant.threeDsRequestor } : {}),
  };
}
