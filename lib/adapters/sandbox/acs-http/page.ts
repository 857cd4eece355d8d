import { escapeHtml } from '../../../http/html-page.js';

/** Minimal, accessible HTML for the sandbox ACS. Every interpolation is escaped. */
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#1a1a2e;background:#f6f7fb}
main{max-width:420px;margin:auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 2px 12px #0001}
h1{font-size:1.25rem;margin:0 0 8px}label{display:block;font-weight:600;margin:16px 0 4px}
input{font:inherit;padding:10px;width:100%;box-sizing:border-box;border:1px solid #99a;border-radius:8px;letter-spacing:.3em}
button{font:inherit;margin-top:16px;width:100%;padding:12px;border:0;border-radius:8px;background:#1434cb;color:#fff;font-weight:600}
button:focus,input:focus{outline:3px solid #f7b600;outline-offset:2px}.note{color:#555;font-size:.9rem}`;

function layout(title: string, body: string, script = '', nonce = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main>${script ? `<script nonce="${escapeHtml(nonce)}">${script}</script>` : ''}</body></html>`;
}

const hidden = (name: string, value: string | undefined) => (value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`);

/**
 * Browsers ignore `autofocus` in a cross-origin frame, and refuse focus() there until the frame
 * has focus: the field takes the cursor the first time this window gets focus (the checkout
 * focuses the frame once the page has loaded), or at once when it already has it.
 */
const FOCUS_CODE = `var code=document.getElementById('code');function take(){code.focus();}
if(document.hasFocus())take();else window.addEventListener('focus',take,{once:true});`;

/** The challenge: posts back to the ACS itself (no action: this very URL) with the code. */
export function challengeForm(creq: string, sessionData: string | undefined, amountText: string, nonce: string): string {
  return layout(
    'Verify your payment',
    `<h1>Verify your payment</h1><p>Sandbox bank · ${escapeHtml(amountText)}</p>
<p class="note">Enter the one-time code sent to your phone. In the sandbox the code is <strong>1234</strong>.</p>
<form method="post">${hidden('creq', creq)}${hidden('threeDSSessionData', sessionData)}
<label for="code">Verification code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="8" required autofocus>
<button type="submit">Verify</button></form>`,
    FOCUS_CODE,
    nonce,
  );
}

/**
 * The end of the challenge, as EMV 3DS 2.2 has it: the ACS form-POSTs the final CRes (and
 * the requestor's threeDSSessionData, unchanged) to the notification URL, in this same frame.
 * The script submits at once; without scripts the shopper presses Continue.
 */
export function cresForm(notificationUrl: string, cres: string, sessionData: string | undefined, authenticated: boolean, nonce: string): string {
  const message = authenticated ? 'Verified. Returning to the checkout…' : 'Verification failed. Returning to the checkout…';
  return layout(
    'Verification complete',
    `<h1 role="status">${message}</h1><form id="cres-form" method="post" action="${escapeHtml(notificationUrl)}">${hidden('cres', cres)}${hidden('threeDSSessionData', sessionData)}
<button type="submit">Continue</button></form>`,
    `document.getElementById('cres-form').submit();`,
    nonce,
  );
}

export function errorPage(message: string): string {
  return layout('Verification unavailable', `<h1>Verification unavailable</h1><p>${escapeHtml(message)}</p>`);
}
