import type { Amount } from '../../core/domain/order.js';
import type { AuthorizationRequest, AuthorizationThreeDs, ModificationRequest } from '../../core/ports/authorizer.js';
import type { Decline } from './decline.js';

/**
 * The processor port this folder's adapters implement: today's authorizer port
 * (lib/core/ports/authorizer.ts) grown by what real processors need. PROPOSED for core
 * (docs/design/processors.md "Port changes"): the coordinator moves it to lib/core/ports; until
 * then the adapters are built against it here and not wired.
 */

/**
 * The outcome of an EMV 3DS authentication that stepped the payment up (SPEC 4.17): the core's
 * AuthorizationRequest.threeDs (authenticationValue, eci, dsTransactionId, protocolVersion,
 * transStatus — the final one, ARes or RReq), plus, when known, the ARes and challenge statuses
 * apart (Adyen's directoryResponse / authenticationResponse).
 */
export interface ThreeDsResult extends AuthorizationThreeDs {
  /** ARes transStatus (Y, A… — C when a challenge followed); absent: `transStatus`. */
  aresTransStatus?: string;
  /** The challenge's final transStatus (RReq), when there was a challenge. */
  challengeTransStatus?: string;
}

export interface ProcessorAuthorizationRequest extends AuthorizationRequest {
  /** Present when the payment stepped up: goes in each processor's external-3DS fields. */
  threeDs?: ThreeDsResult;
}

export interface ProcessorModificationRequest extends ModificationRequest {
  /** The processor's reference of the authorization (Adyen pspReference, Checkout.com pay_…). */
  processorReference: string;
  /** The authorized amount's currency (modifications never change currency). */
  amount: Amount;
}

/** What a processor answered. `pending` is neither approved nor declined: the result comes later. */
export type ProcessorOutcome =
  | { kind: 'approved'; processorReference: string; authorizationCode?: string; resultCode: string }
  | { kind: 'declined'; processorReference?: string; decline: Decline }
  | { kind: 'pending'; processorReference: string };

/**
 * Recovery after a call that may have reached the processor. Adyen recovers by replaying the
 * very request under the same Idempotency-Key (docs.adyen.com API idempotency): it needs the
 * request, which for an authorization holds the credential and so exists only while a caller
 * retries with it. Checkout.com recovers by reference (`GET /payments?reference=`), without it.
 */
export type RecoveryQuery =
  | { operation: 'AUTHORIZE'; reference: string; request?: ProcessorAuthorizationRequest }
  | { operation: 'MODIFY'; request: ProcessorModificationRequest };

export type RecoveryAnswer =
  /** The processor knows the operation: its outcome (possibly still pending). */
  | { kind: 'known'; outcome: ProcessorOutcome }
  /** The processor has no such operation (Checkout.com lookup found nothing). */
  | { kind: 'absent' }
  /** The processor is still processing the first request under this key: ask again later. */
  | { kind: 'in-progress' }
  /** This processor can only answer with the original request (Adyen), or by its notification. */
  | { kind: 'needs-request' };

export interface ProcessorAdapter {
  readonly name: 'adyen' | 'checkout_com';
  authorize(request: ProcessorAuthorizationRequest, signal: AbortSignal): Promise<ProcessorOutcome>;
  modify(request: ProcessorModificationRequest, signal: AbortSignal): Promise<ProcessorOutcome>;
  recover(query: RecoveryQuery, signal: AbortSignal): Promise<RecoveryAnswer>;
}
