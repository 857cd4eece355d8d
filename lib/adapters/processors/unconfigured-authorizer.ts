import { OperationNotPerformedError, type AuthorizationOutcome, type Authorizer } from '../../core/ports/authorizer.js';

/**
 * An acquirer slot with nothing plugged in: the production slot until a gateway plugs its
 * acquirer in, and the sandbox slot on a stage that serves no sandbox (lib/composition/acquirers.ts).
 * It never approves and knows no operation: every call fails, which the service reports as
 * 502 AUTHORIZATION_UNAVAILABLE with the payment left retryable — so a production merchant
 * can never be "approved" by sandbox rules by accident. `reason` stays in the error's message
 * (logs), never in the answer.
 */
export class UnconfiguredAuthorizer implements Authorizer {
  constructor(private readonly reason: string) {}

  async authorize(): Promise<AuthorizationOutcome> {
    throw new OperationNotPerformedError(this.reason);
  }

  async modify(): Promise<AuthorizationOutcome> {
    throw new OperationNotPerformedError(this.reason);
  }

  async lookup(): Promise<AuthorizationOutcome | undefined> {
    throw new OperationNotPerformedError(this.reason);
  }
}
