import { InvalidRequestError, PlatformNotEnabledError } from '../errors.js';

export const PAYMENT_METHODS = ['CLICK_TO_PAY', 'DIRECT_WALLET'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type PaymentMethodSettings = Partial<Record<PaymentMethod, { enabled: boolean }>>;

/** A stored enablement document, platform or tenant level. */
export interface PaymentMethodsConfig {
  paymentMethods: PaymentMethodSettings;
  updatedAt?: string;
  version: number;
}

export const EMPTY_CONFIG: PaymentMethodsConfig = { paymentMethods: {}, version: 0 };

export function isOn(config: PaymentMethodsConfig | undefined, method: PaymentMethod): boolean {
  return config?.paymentMethods[method]?.enabled === true;
}

/**
 * The upsert of SPEC 4.5/4.6: listed methods replace their stored value, others stay.
 * DIRECT_WALLET needs CLICK_TO_PAY on at the same level; a tenant cannot switch on what
 * the platform has off.
 */
export function mergePaymentMethods(stored: PaymentMethodsConfig, update: PaymentMethodSettings, platform?: PaymentMethodsConfig): PaymentMethodSettings {
  const merged: PaymentMethodSettings = { ...stored.paymentMethods, ...update };
  if (merged.DIRECT_WALLET?.enabled && !merged.CLICK_TO_PAY?.enabled) {
    throw new InvalidRequestError('DIRECT_WALLET can only be enabled together with CLICK_TO_PAY.', {
      errors: [{ path: 'paymentMethods.DIRECT_WALLET.enabled', message: 'Requires CLICK_TO_PAY to be enabled' }],
    });
  }
  if (platform) {
    for (const method of PAYMENT_METHODS) {
      if (update[method]?.enabled && !isOn(platform, method)) {
        throw new PlatformNotEnabledError(`${method} is not enabled at platform level.`);
      }
    }
  }
  return merged;
}

export interface Enablement {
  clickToPay: boolean;
  directWallet: boolean;
}

/** What a merchant can actually use: every level must agree (SPEC 4.1). */
export function effectiveEnablement(
  platform: PaymentMethodsConfig | undefined,
  tenant: PaymentMethodsConfig | undefined,
  merchantOnboarded: boolean,
): Enablement {
  const clickToPay = isOn(platform, 'CLICK_TO_PAY') && isOn(tenant, 'CLICK_TO_PAY') && merchantOnboarded;
  const directWallet = clickToPay && isOn(platform, 'DIRECT_WALLET') && isOn(tenant, 'DIRECT_WALLET');
  return { clickToPay, directWallet };
}

export function offeredMethods(enablement: Enablement): PaymentMethod[] {
  const methods: PaymentMethod[] = [];
  if (enablement.clickToPay) methods.push('CLICK_TO_PAY');
  if (enablement.directWallet) methods.push('DIRECT_WALLET');
  return methods;
}
