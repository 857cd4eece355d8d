import type { BrowserInfo } from '../../../core/ports/three-ds-server.js';
import { encodeJsonBase64Url } from './base64url.js';
import type { MessageVersion } from './field-tables/tables.js';

/**
 * The CReq the page form-POSTs (field `creq`, with its own `threeDSSessionData`) to the ARes's
 * acsURL inside the challenge frame (challenge_flow.rst "Initiate the challenge"; creq.html):
 * both transaction ids, the version, and the window size the page said it will give the
 * challenge. base64url without padding.
 */
export function buildCreq(
  ids: { threeDSServerTransID: string; acsTransID: string },
  messageVersion: MessageVersion,
  challengeWindowSize: BrowserInfo['challengeWindowSize'],
): string {
  return encodeJsonBase64Url({
    threeDSServerTransID: ids.threeDSServerTransID,
    acsTransID: ids.acsTransID,
    messageType: 'CReq',
    messageVersion,
    challengeWindowSize,
  });
}
