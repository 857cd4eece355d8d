import type { OperationKind } from '../../../lib/core/domain/payment.js';
import { modifyPayment } from '../../../lib/core/operations/modify-payment.js';
import { platform, type CoreWorld, type OrderIds } from './world.js';

/** A capture, refund or reversal request (4.11–4.13) under its own reference, as the edge hands it to the core. */
export function operate(world: CoreWorld, ids: OrderIds, kind: OperationKind, ref: string, value?: number, currencyCode = 'AED') {
  return modifyPayment(
    world.lifecycle,
    platform,
    ids,
    { kind, ref, ...(value !== undefined ? { amount: { currencyCode, value } } : {}) },
    { logger: world.logger },
  );
}

export const capture = (world: CoreWorld, ids: OrderIds, ref: string, value?: number) => operate(world, ids, 'CAPTURE', ref, value);
export const refund = (world: CoreWorld, ids: OrderIds, ref: string, value?: number) => operate(world, ids, 'REFUND', ref, value);
export const reverse = (world: CoreWorld, ids: OrderIds, ref: string) => operate(world, ids, 'REVERSAL', ref);
