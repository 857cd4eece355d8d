import { escapeHtml, scriptLiteral } from '../../lib/http/html-page.js';

/** The message the checkout page waits for while the 3DS Method runs (web/src/three-ds-method.ts). */
export const METHOD_MESSAGE_TYPE = 'ctp-3ds-method';

const layout = (body: string, script = '', nonce = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3DS Method</title></head><body>${body}${
    script ? `<script nonce="${escapeHtml(nonce)}">${script}</script>` : ''
  }</body></html>`;

/**
 * Tells the checkout page that framed the 3DS Method (hidden iframe) that the ACS finished it,
 * for this transaction — only if that page is on `targetOrigin`, the service's own origin:
 * postMessage with a target origin, never `*`. The id is a UUID (checked), written as an
 * escaped script literal.
 */
export function methodCompletedPage(targetOrigin: string, threeDSServerTransID: string, nonce: string): string {
  const message = { type: METHOD_MESSAGE_TYPE, threeDSServerTransID };
  const script = `(function(){if(window.parent!==window){window.parent.postMessage(${scriptLiteral(message)},${scriptLiteral(targetOrigin)});}})();`;
  return layout('', script, nonce);
}

export const refusedMethodPage = (): string => layout('<p>Not a 3DS Method completion.</p>');
