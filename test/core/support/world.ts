import { createMemoryStores, type MemoryStores } from '../../../lib/adapters/memory/memory-stores.js';
import { PERMISSIONS, type PlatformPrincipal, type Principal, type SessionPrincipal } from '../../../lib/core/auth/principal.js';
import { paymentDataSchema } from '../../../lib/core/checkout/payment-data.js';
import type { MerchantConfig, MerchantEnvironment, ThreeDsPolicy } from '../../../lib/core/domain/merchant.js';
import type { Amount, Order, OrderAction } from '../../../lib/core/domain/order.js';
import type { Payment } from '../../../lib/core/domain/payment.js';
import { loadStanding } from '../../../lib/core/merchants/enablement.js';
import type { LifecycleDeps } from '../../../lib/core/operations/deps.js';
import { createOrder } from '../../../lib/core/orders/orders.js';
import type { PaymentDeps, RequestFacts } from '../../../lib/core/payments/deps.js';
import { payWithDirectWallet, type DirectWalletBody } from '../../../lib/core/payments/pay-direct-wallet.js';
import { Logger } from '../../../lib/core/ports/logger.js';
import { useMetricsRecorder, type Dimensions, type MetricName } from '../../../lib/core/ports/metrics.js';
import type { PaymentRepresentation } from '../../../lib/core/ports/representation.js';
import { tokenData } from '../../support/direct-wallet.js';
import { byEnvironment, ScriptedAcquirer } from './acquirer.js';
import { frozenClock, type FrozenClock } from './clock.js';
import { memoryKeyVault, memoryNetworkKeys, networkSigningKey, type MemoryKeyVault, type NetworkSigningKey } from './keys.js';
import { ScriptedThreeDsServer } from './three-ds.js';

export const TENANT = 't-core';
export const MERCHANT = 'm-core';
export const OUTLET = 'o-core';
export const BASE_URL = 'https://pay.core.test';

/** How the core's payments are shown in answers and events here (the edge's resource is not the core's concern). */
export const represent: PaymentRepresentation = (payment) => ({
  paymentRef: payment.paymentRef,
  state: payment.state,
  amount: payment.amount,
  ...(payment.capturedAmount !== undefined ? { capturedAmount: payment.capturedAmount } : {}),
  ...(payment.refundedAmount !== undefined ? { refundedAmount: payment.refundedAmount } : {}),
});

export const platform: PlatformPrincipal = { kind: 'platform', subject: 'core-test', permissions: new Set(PERMISSIONS) };

export function tenantPrincipal(options: { tenantRef?: string; merchantRef?: string; outletIds?: string[] } = {}): Principal {
  return {
    kind: 'tenant',
    subject: 'core-test',
    tenantRef: options.tenantRef ?? TENANT,
    merchantRef: options.merchantRef,
    outletIds: options.outletIds ? new Set(options.outletIds) : undefined,
    permissions: new Set(PERMISSIONS),
  };
}

export function sessionPrincipal(
  order: Pick<Order, 'orderRef' | 'outletId' | 'merchantRef' | 'tenantRef'>,
  expiresAt = Number.MAX_SAFE_INTEGER,
): SessionPrincipal {
  return { kind: 'session', ...order, expiresAt, permissions: new Set(['CREATE_AUTHORIZATION', 'VIEW_ORDER']) };
}

export interface WorldOptions {
  environment?: MerchantEnvironment;
  threeDsPolicy?: ThreeDsPolicy;
  /** Click to Pay / Direct Wallet at platform and tenant level (default: both on). */
  clickToPay?: boolean;
  directWallet?: boolean;
  /** The acquirer's timeout: real time, so a few milliseconds in these tests. */
  authorizerTimeoutMs?: number;
  leaseMs?: number;
  inFlightMs?: number;
}

/**
 * One merchant's world on the in-memory adapters: stores, a frozen clock, a scriptable acquirer
 * per merchant environment, a 3DS server, the payload key vault and the networks' keys, and the
 * use cases' dependencies wired as lib/composition wires them in production.
 */
export async function coreWorld(options: WorldOptions = {}) {
  const clock = frozenClock();
  const stores = createMemoryStores();
  const acquirers = { production: new ScriptedAcquirer(), sandbox: new ScriptedAcquirer() };
  const environment = options.environment ?? 'production';
  const threeDs = new ScriptedThreeDsServer();
  const keys = await memoryKeyVault();
  const networks = await networkKeys();
  const logs: Record<string, unknown>[] = [];
  const logger = new Logger({ test: 'core' }, 'debug', (line) => logs.push(JSON.parse(line)));
  const settings = {
    checkoutMaxAgeSeconds: 300,
    authorizerTimeoutMs: options.authorizerTimeoutMs ?? 25,
    leaseMs: options.leaseMs ?? 30_000,
    inFlightMs: options.inFlightMs ?? 60_000,
    pendingThreeDsSeconds: 3600,
    threeDs: { prepareTimeoutMs: 3_000, authenticateTimeoutMs: 11_000, resultTimeoutMs: 3_000, maxAttempts: 3 },
  };
  const payments: PaymentDeps = {
    config: stores.config,
    standing: { load: (tenantRef, merchantRef) => loadStanding(stores.config, tenantRef, merchantRef) },
    orders: stores.orders,
    payments: stores.payments,
    links: stores.links,
    replay: stores.replay,
    keys,
    networks: memoryNetworkKeys(Object.values(networks)),
    authorizers: byEnvironment(acquirers),
    threeDsServers: { production: threeDs, sandbox: threeDs },
    settings,
    now: clock.now,
    represent,
  };
  const lifecycle: LifecycleDeps = {
    config: stores.config,
    orders: stores.orders,
    payments: stores.payments,
    operations: stores.operations,
    authorizers: byEnvironment(acquirers),
    settings: { authorizerTimeoutMs: settings.authorizerTimeoutMs, inFlightMs: settings.inFlightMs, maxOperations: 100 },
    now: clock.now,
    represent,
  };
  const world = {
    clock,
    stores,
    acquirers,
    /** The acquirer of this world's merchant. */
    acquirer: acquirers[environment],
    threeDs,
    keys,
    networks,
    logs,
    logger,
    payments,
    lifecycle,
    facts: { baseUrl: BASE_URL, payerIp: undefined, logger } satisfies RequestFacts,
    orderDeps: { config: stores.config, orders: stores.orders, now: clock.now, represent },
  };
  await seedMerchant(world, { environment, threeDsPolicy: options.threeDsPolicy ?? 'risk-based' });
  await enable(stores, { clickToPay: options.clickToPay ?? true, directWallet: options.directWallet ?? true });
  return world;
}

export type CoreWorld = Awaited<ReturnType<typeof coreWorld>>;

/** The trusted networks' signing keys, made once per test file (key generation is the slow part of a world). */
let signingKeys: Promise<Record<'visa' | 'mastercard' | 'sandbox', NetworkSigningKey>> | undefined;
const networkKeys = () =>
  (signingKeys ??= (async () => ({
    visa: await networkSigningKey('visa'),
    mastercard: await networkSigningKey('mastercard'),
    sandbox: await networkSigningKey('sandbox'),
  }))());

async function seedMerchant(world: { stores: MemoryStores; clock: FrozenClock }, merchant: Pick<MerchantConfig, 'environment' | 'threeDsPolicy'>) {
  await world.stores.config.putMerchant({
    merchantRef: MERCHANT,
    tenantRef: TENANT,
    dpaId: 'dpa-core',
    dpaClientId: 'dpa-client-core',
    dpaName: 'Core Shop',
    cardBrands: ['visa', 'mastercard'],
    locale: 'en_AE',
    outlets: [OUTLET],
    redirectOrigins: ['https://shop.example'],
    updatedAt: new Date(world.clock.now()).toISOString(),
    ...merchant,
  });
  await world.stores.config.putOutlet({ outletId: OUTLET, merchantRef: MERCHANT, tenantRef: TENANT });
}

/** Sets the platform and tenant switches (as 4.5/4.6 would store them). */
export async function enable(stores: MemoryStores, on: { clickToPay: boolean; directWallet: boolean }) {
  const methods = { paymentMethods: { CLICK_TO_PAY: { enabled: on.clickToPay }, DIRECT_WALLET: { enabled: on.directWallet } } };
  const platformNow = await stores.config.getPlatformMethods();
  await stores.config.putPlatformMethods({ ...methods, version: (platformNow?.version ?? 0) + 1 }, platformNow?.version ?? 0);
  const tenantNow = await stores.config.getTenantMethods(TENANT);
  await stores.config.putTenantMethods(TENANT, { ...methods, version: (tenantNow?.version ?? 0) + 1 }, tenantNow?.version ?? 0);
}

/** A new order with its STARTED payment, made by the core's own 4.8 use case. */
export async function newOrder(world: CoreWorld, input: { action?: OrderAction; amount?: Amount; linkRef?: string } = {}) {
  const view = await createOrder(world.orderDeps, platform, OUTLET, {
    action: input.action ?? 'AUTH',
    amount: input.amount ?? { currencyCode: 'AED', value: 10_000 },
    ...(input.linkRef ? { linkRef: input.linkRef } : {}),
  });
  const snapshot = (await world.stores.orders.get(view.orderRef))!;
  const payment = snapshot.payments[0]!;
  return { order: snapshot.order, payment, ids: { outletId: OUTLET, orderRef: view.orderRef, paymentRef: payment.paymentRef } };
}

export type OrderIds = { outletId: string; orderRef: string; paymentRef: string };

/** The stored payment (strongly consistent, as the store's `get` reads it). */
export async function storedPayment(world: CoreWorld, ids: Pick<OrderIds, 'orderRef' | 'paymentRef'>): Promise<Payment> {
  const payment = await world.stores.payments.get(ids.orderRef, ids.paymentRef);
  if (!payment) throw new Error('no such payment');
  return payment;
}

/** A 4.4 Direct Wallet body (token data with a cryptogram), validated as the HTTP layer would. */
export function directWalletBody(extra: Record<string, unknown> = {}): DirectWalletBody {
  return paymentDataSchema.parse(tokenData(extra)) as DirectWalletBody;
}

/** Pays with Direct Wallet data (4.4); `eci` '05' (Visa authenticated) unless given. */
export function payDirect(world: CoreWorld, ids: OrderIds, extra: Record<string, unknown> = {}) {
  return payWithDirectWallet(world.payments, platform, ids, directWalletBody(extra), world.facts);
}

/** An order whose payment the acquirer authorised (AUTH: AUTHORISED; PURCHASE: CAPTURED). */
export async function authorisedPayment(world: CoreWorld, input: { action?: OrderAction; amount?: Amount } = {}) {
  const created = await newOrder(world, input);
  const payment = await payDirect(world, created.ids);
  if (payment.state !== (input.action === 'PURCHASE' ? 'CAPTURED' : 'AUTHORISED')) throw new Error(`setup: payment is ${payment.state}`);
  return { ...created, payment };
}

/** Every metric recorded through the core's metrics port while the test runs. */
export function recordedMetrics() {
  const counts: { name: MetricName; dimensions: Dimensions; value: number }[] = [];
  useMetricsRecorder({
    count: (name, dimensions = {}, value = 1) => counts.push({ name, dimensions, value }),
    timing: () => undefined,
    flush: () => undefined,
  });
  return counts;
}

export { directWalletCredentialKey } from '../../../lib/core/payments/credential-key.js';
export type { NetworkSigningKey, MemoryKeyVault };
