import type { Logger } from '../../../core/ports/logger.js';
import { mastercardConfirmationBody } from './confirmation-body.js';
import type { ConfirmationResult, NetworkClient, NetworkConfirmation } from '../../../core/ports/network-client.js';
import { authorizationHeader, type OAuthCredentials } from './oauth1.js';
import { postConfirmation } from '../post-confirmation.js';

export interface MastercardConfirmationsSettings {
  /** e.g. https://api.mastercard.com/srci/api/checkout/confirmations (sandbox.api.… before go-live). */
  url: string;
  /** Our SRC Initiator client id at Mastercard: `srcClientId` in the body and `x-openapi-clientid`. */
  srcClientId: string;
}

/**
 * The production adapter of the NetworkClient port for Mastercard: the confirmation as
 * Mastercard's body (confirmation-body.ts), signed with OAuth 1.0a (oauth1.ts) with
 * the credentials loaded once per warm function (credentials.ts: an SSM parameter by ARN).
 * Credentials that cannot be loaded are a failed attempt like any other (retried, metric).
 */
export class MastercardConfirmationsClient implements NetworkClient {
  constructor(
    private readonly settings: MastercardConfirmationsSettings,
    private readonly credentials: () => Promise<OAuthCredentials>,
    private readonly logger: Logger,
  ) {}

  async confirm(confirmation: NetworkConfirmation): Promise<ConfirmationResult> {
    let credentials: OAuthCredentials;
    try {
      credentials = await this.credentials();
    } catch (error) {
      this.logger.warn('Mastercard API credentials unavailable', { error });
      return { ok: false, error: 'credentials-unavailable', durationMs: 0 };
    }
    const body = JSON.stringify(mastercardConfirmationBody(confirmation, this.settings.srcClientId));
    return postConfirmation(this.settings.url, body, {
      Authorization: authorizationHeader('POST', this.settings.url, body, credentials),
      'x-openapi-clientid': this.settings.srcClientId,
    });
  }
}
