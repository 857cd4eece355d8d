import type {
  AuthorizationOutcome,
  AuthorizationRequest,
  Authorizer,
  ModificationRequest,
  RecoveryAnswer,
  RecoveryQuery,
} from '../../../core/ports/authorizer.js';
import { operationKey } from '../transport/base-url.js';
import { ProcessorMaybeSentError } from '../transport/failures.js';
import { CheckoutComClient } from './client.js';
import type { CheckoutComAdapterConfig } from './config.js';
import { outcomeOfAction, outcomeOfDetails, outcomeOfPayment } from './outcome-of.js';
import { CKO_ACTION, CKO_ACTION_TYPE, toActionRequest } from './to-action-request.js';
import { toPaymentRequest } from './to-payment-request.js';

/**
 * Checkout.com behind the authorizer port. A 202 on /payments is pending, never approved;
 * captures, voids and refunds answer 202 (accepted) and are settled by reading the payment's
 * actions. Recovery is by reference, never by replay: Checkout.com keeps an idempotent result
 * only for a request that answered 2xx and reattempts any other
 * (checkout.com/docs/payments/manage-payments/idempotency), so resending after a 5xx could
 * charge twice. An authorization is found with GET /payments?reference=<paymentRef>, an action
 * in GET /payments/{id}/actions by its reference.
 */
export class CheckoutComProcessor implements Authorizer {
  readonly name = 'checkout_com' as const;
  private readonly client: CheckoutComClient;

  constructor(private readonly config: CheckoutComAdapterConfig) {
    this.client = new CheckoutComClient(config);
  }

  async authorize(request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationOutcome> {
    const body = toPaymentRequest(request, this.config.processingChannelId);
    const { status, answer } = await this.client.requestPayment(body, operationKey('AUTHORIZE', request.idempotencyKey), signal);
    return outcomeOfPayment(status, answer, request.idempotencyKey, request.amount.value);
  }

  async modify(request: ModificationRequest, signal: AbortSignal): Promise<AuthorizationOutcome> {
    const answer = await this.client.action(
      CKO_ACTION[request.kind],
      request.processorReference,
      toActionRequest(request),
      operationKey(request.kind, request.idempotencyKey),
      signal,
    );
    if (answer.reference !== undefined && answer.reference !== request.idempotencyKey)
      throw new ProcessorMaybeSentError('checkout_com', 'idempotency-conflict');
    return { kind: 'pending', processorReference: answer.action_id };
  }

  async recover(query: RecoveryQuery, signal: AbortSignal): Promise<RecoveryAnswer> {
    if (query.operation === 'MODIFY') {
      const { request } = query;
      const actions = await this.client.actions(request.processorReference, signal);
      const action = actions.find((candidate) => candidate.reference === request.idempotencyKey && candidate.type === CKO_ACTION_TYPE[request.kind]);
      if (action) return { kind: 'known', outcome: outcomeOfAction(action) };
      // Accepted (202) and not processed yet: an action is listed once processed.
      return query.acknowledged ? { kind: 'known', outcome: { kind: 'pending', processorReference: query.acknowledged } } : { kind: 'absent' };
    }
    const found = (await this.client.paymentsByReference(query.reference, signal)).filter((payment) => payment.reference === query.reference);
    if (found.length === 0) return query.acknowledged ? { kind: 'in-progress' } : { kind: 'absent' };
    // One reference, one payment: if there were ever two, the approved one is the money that moved.
    const payment = found.find((candidate) => candidate.approved) ?? found[0]!;
    // A decline's response code is on its Authorization action; an approval or a pending payment needs none.
    const declined = !payment.approved && payment.status !== 'Pending';
    const authorization = declined ? (await this.client.actions(payment.id, signal)).find((action) => action.type === 'Authorization') : undefined;
    return { kind: 'known', outcome: outcomeOfDetails(payment, authorization) };
  }
}
