import type {
  ProcessorAdapter,
  ProcessorAuthorizationRequest,
  ProcessorModificationRequest,
  ProcessorOutcome,
  RecoveryAnswer,
  RecoveryQuery,
} from '../port.js';
import { operationKey } from '../transport/base-url.js';
import { ProcessorMaybeSentError } from '../transport/failures.js';
import { AdyenCheckoutClient } from './client.js';
import type { AdyenAdapterConfig } from './config.js';
import { outcomeOfModification, outcomeOfPayment } from './outcome-of.js';
import { toPaymentRequest } from './to-payment-request.js';
import { ADYEN_MODIFICATION, toModificationRequest } from './to-modification-request.js';

/**
 * Adyen behind the processor port. Authorizations answer at once (or Pending); captures,
 * cancels and refunds answer 201 "received" and are settled by notifications, so `modify`
 * returns `pending`. Recovery is Adyen's documented one: the same request again under the same
 * Idempotency-Key returns the first answer without performing anything twice
 * (docs.adyen.com/development-resources/api-idempotency); while the first is still running
 * Adyen answers 704 → `in-progress`. Without the original request (an authorization whose
 * credential is gone) only the AUTHORISATION notification can tell → `needs-request`.
 */
export class AdyenProcessor implements ProcessorAdapter {
  readonly name = 'adyen' as const;
  private readonly client: AdyenCheckoutClient;

  constructor(private readonly config: AdyenAdapterConfig) {
    this.client = new AdyenCheckoutClient(config);
  }

  async authorize(request: ProcessorAuthorizationRequest, signal: AbortSignal): Promise<ProcessorOutcome> {
    const body = toPaymentRequest(request, this.config);
    const answer = await this.client.payments(body, operationKey('AUTHORIZE', request.idempotencyKey), signal);
    return outcomeOfPayment(answer, body);
  }

  async modify(request: ProcessorModificationRequest, signal: AbortSignal): Promise<ProcessorOutcome> {
    const body = toModificationRequest(request, this.config.merchantAccount);
    const answer = await this.client.modify(
      ADYEN_MODIFICATION[request.kind],
      request.processorReference,
      body,
      operationKey(request.kind, request.idempotencyKey),
      signal,
    );
    return outcomeOfModification(answer, {
      reference: body.reference,
      paymentPspReference: request.processorReference,
      ...(body.amount ? { amount: body.amount } : {}),
    });
  }

  async recover(query: RecoveryQuery, signal: AbortSignal): Promise<RecoveryAnswer> {
    if (query.operation === 'AUTHORIZE' && !query.request) return { kind: 'needs-request' };
    try {
      const outcome = query.operation === 'AUTHORIZE' ? await this.authorize(query.request!, signal) : await this.modify(query.request, signal);
      return { kind: 'known', outcome };
    } catch (error) {
      if (error instanceof ProcessorMaybeSentError && error.reason === 'in-progress') return { kind: 'in-progress' };
      throw error;
    }
  }
}
