import { OperationNotPerformedError, type AuthorizationOutcome, type Authorizer } from '../../core/ports/authorizer.js';

/**
 * The production slot until a gateway plugs its acquirer in (lib/composition/payments.ts).
 * It never approves and knows no operation: every call fails, which the service reports as
 * 502 AUTHORIZATION_UNAVAILABLE with the payment left retryable — so a production merchant
 * can never be "approved" by sandbox rules by accident.
 */
export class UnconfiguredAuthorizer implements Authorizer {
  async authorize(): Promise<AuthorizationOutcome> {
    throw new OperationNotPerformedError('no production acquirer is configured for this deployment');
  }

  async modify(): Promise<AuthorizationOutcome> {
    throw new OperationNotPerformedError('no production acquirer is configured for this deployment');
  }

  async lookup(): Promise<AuthorizationOutcome | undefined> {
    throw new OperationNotPerformedError('no production acquirer is configured for this deployment');
  }
}
