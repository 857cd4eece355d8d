import type * as z from 'zod';
import type { OperationKind } from '../core/domain/payment.js';
import { toPaymentResource } from './resources/payment-resource.js';
import type { LifecycleDeps } from '../core/operations/deps.js';
import { modifyPayment } from '../core/operations/modify-payment.js';
import { operationRef } from '../core/operations/operation-ref.js';
import type { operationBody } from './operation-body.js';
import { headerValue } from './json-body.js';
import type { ApiRequest, ApiResult } from './types.js';

type Params = { outletId: string; orderRef: string; paymentRef: string };

/** The shared shape of the capture, reversal and refund handlers. */
export async function runOperation(
  lifecycleDeps: LifecycleDeps,
  kind: OperationKind,
  request: ApiRequest<Params, unknown, z.output<typeof operationBody> | undefined>,
  status: number,
): Promise<ApiResult> {
  const { params, body, principal, event, logger } = request;
  const ref = operationRef(kind, params.paymentRef, principal, headerValue(event, 'idempotency-key'));
  const payment = await modifyPayment(lifecycleDeps, principal, params, { kind, ref, ...(body?.amount ? { amount: body.amount } : {}) }, { logger });
  return { status, body: toPaymentResource(payment) };
}
