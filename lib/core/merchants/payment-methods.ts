import { StoreConflictError } from '../ports/store-conflict.js';
import { EMPTY_CONFIG, mergePaymentMethods, type PaymentMethodSettings, type PaymentMethodsConfig } from '../domain/payment-methods.js';
import { DependencyUnavailableError } from '../errors.js';

import type { ConfigStore } from '../ports/config-store.js';

type Level = { level: 'platform' } | { level: 'tenant'; tenantRef: string };
const MAX_ATTEMPTS = 4;

/** 4.5/4.6 GET: the stored configuration; never configured reads as everything off. */
export async function readPaymentMethods(config: ConfigStore, at: Level) {
  const stored = at.level === 'platform' ? await config.getPlatformMethods() : await config.getTenantMethods(at.tenantRef);
  return view(at, stored ?? EMPTY_CONFIG);
}

/**
 * 4.5/4.6 PUT|POST: idempotent upsert of the listed methods. Read-merge-write with an
 * optimistic version check; a lost race re-reads and re-validates (e.g. against a platform
 * switch that happened meanwhile).
 */
export async function upsertPaymentMethods({ config, now }: { config: ConfigStore; now: () => number }, at: Level, update: PaymentMethodSettings) {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const [stored, platform] = await Promise.all([
      // Read-modify-write: the reads must see the last write (ours or a concurrent one).
      at.level === 'platform' ? config.getPlatformMethods({ consistent: true }) : config.getTenantMethods(at.tenantRef, { consistent: true }),
      at.level === 'tenant' ? config.getPlatformMethods({ consistent: true }) : Promise.resolve(undefined),
    ]);
    const current = stored ?? EMPTY_CONFIG;
    const merged = mergePaymentMethods(current, update, at.level === 'tenant' ? (platform ?? EMPTY_CONFIG) : undefined);
    const next: PaymentMethodsConfig = { paymentMethods: merged, updatedAt: new Date(now()).toISOString(), version: current.version + 1 };
    try {
      if (at.level === 'platform') await config.putPlatformMethods(next, current.version);
      else await config.putTenantMethods(at.tenantRef, next, current.version);
      return view(at, next);
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }
  throw new DependencyUnavailableError('The configuration is being changed concurrently; retry.');
}

function view(at: Level, config: PaymentMethodsConfig) {
  return {
    level: at.level,
    ...(at.level === 'tenant' ? { tenantRef: at.tenantRef } : {}),
    paymentMethods: {
      CLICK_TO_PAY: { enabled: config.paymentMethods.CLICK_TO_PAY?.enabled ?? false },
      DIRECT_WALLET: { enabled: config.paymentMethods.DIRECT_WALLET?.enabled ?? false },
    },
    ...(config.updatedAt ? { updatedAt: config.updatedAt } : {}),
  };
}
