import type { MerchantConfig, Outlet } from '../domain/merchant.js';
import type { PaymentMethodsConfig } from '../domain/payment-methods.js';

export interface ReadOptions {
  /** Strongly consistent: the read must see a write that just happened. */
  consistent?: boolean;
}

/**
 * Platform, tenant, merchant and outlet records. Reads are eventually consistent unless the
 * caller is about to write what it read (`consistent`). Versioned writes throw
 * StoreConflictError when the stored version is not `expectedVersion`.
 */
export interface ConfigStore {
  getPlatformMethods(options?: ReadOptions): Promise<PaymentMethodsConfig | undefined>;
  getTenantMethods(tenantRef: string, options?: ReadOptions): Promise<PaymentMethodsConfig | undefined>;
  putPlatformMethods(config: PaymentMethodsConfig, expectedVersion: number): Promise<void>;
  putTenantMethods(tenantRef: string, config: PaymentMethodsConfig, expectedVersion: number): Promise<void>;
  getMerchant(merchantRef: string, options?: ReadOptions): Promise<MerchantConfig | undefined>;
  putMerchant(merchant: MerchantConfig): Promise<void>;
  getOutlet(outletId: string, options?: ReadOptions): Promise<Outlet | undefined>;
  putOutlet(outlet: Outlet): Promise<void>;
  deleteOutlet(outletId: string, merchantRef: string): Promise<void>;
  /**
   * A processor account belongs to one merchant (its notifications are found by the account):
   * claims it for `merchantRef`; StoreConflictError when another merchant holds it.
   */
  claimProcessorAccount(processor: string, account: string, merchantRef: string): Promise<void>;
  /** The merchant holding a processor account (eventually consistent unless `consistent`). */
  processorAccountOwner(processor: string, account: string, options?: ReadOptions): Promise<string | undefined>;
  /** Releases an account, only if `merchantRef` still holds it. */
  releaseProcessorAccount(processor: string, account: string, merchantRef: string): Promise<void>;
}
