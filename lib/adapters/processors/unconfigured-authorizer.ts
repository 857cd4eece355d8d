import { OperationNotPerformedError, type AuthorizationOutcome, type Authorizer, type RecoveryAnswer } from '../../core/ports/authorizer.js';

/**
 * An acquirer slot with nothing usable plugged in: the production slot for a merchant without a
 * usable processor (one onboarded before SPEC 4.7's `processor` existed — onboarding now refuses
 * a production merchant without one — or one whose processor is `sandbox` where this deployment
 * does not allow it), and the sandbox slot on a stage that serves no sandbox
 * (lib/composition/acquirer-slots.ts). It never approves and knows no operation: every call fails as
 * not performed, which the service reports as 502 AUTHORIZATION_UNAVAILABLE with the payment
 * left retryable — so a production merchant can never be "approved" by sandbox rules by
 * accident. `recover` fails too: nothing is ever concluded from it, so an operation another
 * authorizer may have sent is never given up. `reason` stays in the error's message (logs),
 * never in the answer.
 */
export class UnconfiguredAuthorizer implements Authorizer {
  constructor(private readonly reason: string) {}

  async authorize(): Promise<AuthorizationOutcome> {
    throw new OperationNotPerformedError(this.reason);
  }

  async modify(): Promise<AuthorizationOutcome> {
    throw new OperationNotPerformedError(this.reason);
  }

  async recover(): Promise<RecoveryAnswer> {
    throw new OperationNotPerformedError(this.reason);
  }
}
