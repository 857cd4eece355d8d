import type { FakeNetworkName } from './fake-network-keys.js';
import type { FakeCheckout } from './fake-network-state.js';

/**
 * The network-hosted screen that finishes a checkout (Mastercard calls it the DCF, Digital
 * Card Facilitator; Visa a "Visa-hosted user interface"). Mastercard's is opened in the window
 * the integrator passes as `windowRef` to checkoutWithCard / checkoutWithNewCard
 * (developer.mastercard.com …/sdk-reference/checkout-method; hyperswitch opens it with
 * window.open and passes the handle). Visa's reference does not say how its hosted UI is
 * shown when no windowRef is given: this fake uses an iframe, so that the browser suite
 * exercises the page's frame-src. How the DCF hands its result back to the SDK is not public:
 * here it posts it to the SDK's window (postMessage, target = the page's origin).
 */
export function dcfPage(network: FakeNetworkName, checkout: FakeCheckout, parentOrigin: string, mode: 'frame' | 'window'): string {
  const brand = checkout.card.brand === 'visa' ? 'Visa' : 'Mastercard';
  const amount = checkout.amount ? `${String(checkout.amount.transactionCurrencyCode ?? '')} ${String(checkout.amount.transactionAmount ?? '')}` : '';
  const title = network === 'visa' ? 'Visa Click to Pay' : 'Mastercard Click to Pay';
  const config = JSON.stringify({ checkout: checkout.id, parent: parentOrigin, mode, network }).replace(/</g, '\\u003c');
  const cancel = network === 'mastercard' ? '<button id="cancel" type="button">Cancel</button>' : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px system-ui,sans-serif;margin:24px;color:#1a1f71}button{font:inherit;padding:8px 16px;margin-right:8px}</style>
</head><body>
<h1>${title}</h1>
<p>Pay ${escape(amount)} with ${brand} ending in ${checkout.card.panLastFour}</p>
<button id="continue" type="button">Continue</button>${cancel}
<p id="status" role="status"></p>
<script>
const config = ${config};
const target = config.mode === 'frame' ? window.parent : window.opener;
function deliver(result) {
  target.postMessage({ type: 'fake-dcf-result', checkout: config.checkout, result }, config.parent);
  if (config.mode === 'window') window.close();
}
document.getElementById('continue').addEventListener('click', async () => {
  document.getElementById('status').textContent = 'Completing…';
  const response = await fetch('/api/confirm', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ checkout: config.checkout }) });
  deliver(await response.json());
});
const cancel = document.getElementById('cancel');
if (cancel) cancel.addEventListener('click', () => deliver({ checkoutActionCode: 'CANCEL' }));
</script>
</body></html>`;
}

function escape(value: string): string {
  return value.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
