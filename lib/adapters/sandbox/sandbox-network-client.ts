import { mastercardConfirmationBody } from '../network/mastercard/confirmation-body.js';
import type { ConfirmationResult, NetworkClient, NetworkConfirmation } from '../../core/ports/network-client.js';
import { postConfirmation } from '../network/post-confirmation.js';

/** The sandbox SRC's client id: the sandbox network knows no projects or signing keys. */
export const SANDBOX_SRC_CLIENT_ID = 'sandbox-src-initiator';

/**
 * The sandbox network's side of the NetworkClient port: the same Mastercard body as
 * production, POSTed to the sandbox SRC's confirmations endpoint
 * (POST /sandbox/src/confirmations, lib/adapters/sandbox/src/confirmation-ledger.ts), unsigned, with
 * the stable confirmation id as Idempotency-Key so the network records each outcome once
 * however often it is sent. Wired only in lib/composition/ (sandbox checkouts only).
 */
export class SandboxNetworkClient implements NetworkClient {
  constructor(
    private readonly url: string,
    private readonly timeoutMs?: number,
  ) {}

  confirm(confirmation: NetworkConfirmation): Promise<ConfirmationResult> {
    const body = JSON.stringify(mastercardConfirmationBody(confirmation, SANDBOX_SRC_CLIENT_ID));
    return postConfirmation(this.url, body, { 'Idempotency-Key': confirmation.id }, this.timeoutMs);
  }
}
