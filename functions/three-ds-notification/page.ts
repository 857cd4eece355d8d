import { escapeHtml, scriptLiteral } from '../../lib/http/html-page.js';

/** The message the checkout page waits for (web/src, the challenge step). */
export const NOTIFICATION_MESSAGE_TYPE = 'ctp-3ds-notification';

function layout(title: string, body: string, script = '', nonce = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title></head><body>${body}${script ? `<script nonce="${escapeHtml(nonce)}">${script}</script>` : ''}</body></html>`;
}

/**
 * Hands the cres (and the page's own threeDSSessionData back) to the checkout page that
 * framed the challenge — only if that parent is on `targetOrigin`, the service's own origin:
 * postMessage with a target origin, never `*`. The values are base64url (checked) and are
 * written as escaped script literals.
 */
export function notificationPage(targetOrigin: string, cres: string, sessionData: string | undefined, nonce: string): string {
  const message = { type: NOTIFICATION_MESSAGE_TYPE, cres, ...(sessionData === undefined ? {} : { threeDSSessionData: sessionData }) };
  const script = `(function(){if(window.parent!==window){window.parent.postMessage(${scriptLiteral(message)},${scriptLiteral(targetOrigin)});}})();`;
  return layout('Returning to the checkout', '<p role="status">Verification finished. Returning to the checkout…</p>', script, nonce);
}

export function refusedPage(): string {
  return layout('Verification result not accepted', '<p>This verification result cannot be used. Please return to the checkout.</p>');
}
