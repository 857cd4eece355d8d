import type { MerchantConfig, Outlet } from '../../core/domain/merchant.js';
import type { PaymentMethodsConfig } from '../../core/domain/payment-methods.js';
import type { ConfigStore } from '../../core/ports/config-store.js';
import { conflict, copy, type MemoryTables } from './tables.js';

/**
 * Platform, tenant, merchant and outlet records in memory, with the DynamoDB store's conditions
 * (config-repository.ts): versioned writes of the payment methods (0: only if none exists), a
 * merchant never moves to another tenant, an outlet never to another merchant. Every read is
 * consistent here; `consistent` changes nothing.
 */
export class MemoryConfigStore implements ConfigStore {
  constructor(private readonly tables: MemoryTables) {}

  async getPlatformMethods(): Promise<PaymentMethodsConfig | undefined> {
    return copyOf(this.tables.platformMethods.get('platform'));
  }

  async getTenantMethods(tenantRef: string): Promise<PaymentMethodsConfig | undefined> {
    return copyOf(this.tables.tenantMethods.get(tenantRef));
  }

  async putPlatformMethods(config: PaymentMethodsConfig, expectedVersion: number): Promise<void> {
    assertVersion(this.tables.platformMethods.get('platform'), expectedVersion);
    this.tables.platformMethods.set('platform', copy(config));
  }

  async putTenantMethods(tenantRef: string, config: PaymentMethodsConfig, expectedVersion: number): Promise<void> {
    assertVersion(this.tables.tenantMethods.get(tenantRef), expectedVersion);
    this.tables.tenantMethods.set(tenantRef, copy({ tenantRef, ...config }));
  }

  async getMerchant(merchantRef: string): Promise<MerchantConfig | undefined> {
    return copyOf(this.tables.merchants.get(merchantRef));
  }

  async putMerchant(merchant: MerchantConfig): Promise<void> {
    const existing = this.tables.merchants.get(merchant.merchantRef);
    if (existing && existing.tenantRef !== merchant.tenantRef) throw conflict(existing);
    this.tables.merchants.set(merchant.merchantRef, copy(merchant));
  }

  async getOutlet(outletId: string): Promise<Outlet | undefined> {
    return copyOf(this.tables.outlets.get(outletId));
  }

  async putOutlet(outlet: Outlet): Promise<void> {
    const existing = this.tables.outlets.get(outlet.outletId);
    if (existing && existing.merchantRef !== outlet.merchantRef) throw conflict(existing);
    this.tables.outlets.set(outlet.outletId, copy(outlet));
  }

  /** A processor account belongs to one merchant: claimed only if free or already this merchant's. */
  async claimProcessorAccount(processor: string, account: string, merchantRef: string): Promise<void> {
    const key = `${processor}\n${account}`;
    const owner = this.tables.processorAccounts.get(key);
    if (owner !== undefined && owner !== merchantRef) throw conflict({ processor, account, merchantRef: owner });
    this.tables.processorAccounts.set(key, merchantRef);
  }

  async processorAccountOwner(processor: string, account: string): Promise<string | undefined> {
    return this.tables.processorAccounts.get(`${processor}\n${account}`);
  }

  /** Releases a processor account only if it still belongs to this merchant. */
  async releaseProcessorAccount(processor: string, account: string, merchantRef: string): Promise<void> {
    const key = `${processor}\n${account}`;
    if (this.tables.processorAccounts.get(key) === merchantRef) this.tables.processorAccounts.delete(key);
  }

  /** Releases an outlet only if it still belongs to this merchant; gone or reassigned: nothing to do. */
  async deleteOutlet(outletId: string, merchantRef: string): Promise<void> {
    if (this.tables.outlets.get(outletId)?.merchantRef === merchantRef) this.tables.outlets.delete(outletId);
  }
}

/** The optimistic write's condition: 0 creates (none may exist), any other version replaces exactly that one. */
export function assertVersion<T extends { version: number }>(stored: T | undefined, expectedVersion: number): void {
  if (expectedVersion === 0 ? stored !== undefined : stored?.version !== expectedVersion) throw conflict(stored);
}

const copyOf = <T>(value: T | undefined): T | undefined => (value === undefined ? undefined : copy(value));
