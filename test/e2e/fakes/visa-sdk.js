/*
 * FAKE of Visa's Unified Click to Pay SDK (sdk.js → window.VSDK), for the browser suite only.
 * Served from its own loopback origin by test/e2e/fakes/fake-network-server.ts.
 *
 * Written from the public reference, nothing more:
 *  - developer.visa.com "JavaScript Reference - Unified Click to Pay": sdk.js loaded with
 *    ?dpaId=&cardBrands=&dpaClientId= (dpaId required).
 *  - juspay/hyperswitch-web src/Types/ClickToPayHelpers.res (an open-source integration):
 *      VSDK.initialize({ dpaTransactionOptions })
 *      VSDK.getCards({ consumerIdentity: { identityProvider: "SRC", identityType: EMAIL_ADDRESS |
 *        MOBILE_PHONE_NUMBER, identityValue }, validationData? })
 *        → { actionCode: SUCCESS | PENDING_CONSUMER_IDV | ADD_CARD | ERROR | FAILED,
 *            profiles?: [{ maskedCards }], maskedValidationChannel?, error?: { reason, message } }
 *      VSDK.checkout({ srcDigitalCardId | encryptedCard, consumer?, windowRef?, dpaTransactionOptions,
 *        complianceSettings?, payloadTypeIndicatorCheckout? }) → { actionCode, checkoutResponse }
 *      VSDK.unbindAppInstance() → { error? }
 *  - developer.visa.com release notes 25.08: checkout with a new card may show a Visa-hosted UI.
 * Silent in the reference, so chosen here: how errors of initialize/checkout reject (with
 * `{ reason, message }`), whether a repeated getCards without validationData sends a new code
 * (this fake: yes), the hosted UI's form (an iframe here) and how it answers (postMessage).
 * CHANGE_CARD / SWITCH_CONSUMER are action codes the hosted UI could answer; this fake's UI
 * has no such buttons, so it never does.
 */
(() => {
  const src = new URL(document.currentScript.src);
  const origin = src.origin;
  const dpaId = src.searchParams.get('dpaId');
  let session;

  async function call(op, body) {
    const response = await fetch(`${origin}/api/${op}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...body, session }),
    });
    const answer = await response.json();
    if (!response.ok) throw answer.error ?? { reason: 'SERVICE_ERROR' };
    return answer;
  }

  /** The Visa-hosted UI in an iframe over the page; resolves with what it posts back. */
  function hostedUi(checkoutId) {
    return new Promise((resolve) => {
      const overlay = document.createElement('div');
      // CSSOM, not a style attribute: the page's CSP (style-src 'self') refuses inline styles.
      Object.assign(overlay.style, {
        position: 'fixed',
        inset: '0',
        background: 'rgba(0,0,0,.4)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        zIndex: '2147483647',
      });
      const frame = document.createElement('iframe');
      frame.title = 'Visa Click to Pay';
      Object.assign(frame.style, { width: '420px', height: '320px', border: '0', background: '#fff' });
      frame.src = `${origin}/dcf?${new URLSearchParams({ checkout: checkoutId, parent: location.origin, mode: 'frame' })}`;
      const onMessage = (event) => {
        if (event.origin !== origin || event.source !== frame.contentWindow) return;
        if (event.data?.type !== 'fake-dcf-result' || event.data.checkout !== checkoutId) return;
        window.removeEventListener('message', onMessage);
        overlay.remove();
        resolve(event.data.result);
      };
      window.addEventListener('message', onMessage);
      overlay.appendChild(frame);
      document.body.appendChild(overlay);
    });
  }

  window.VSDK = {
    async initialize(input = {}) {
      const answer = await call('initialize', { dpaId, dpaTransactionOptions: input.dpaTransactionOptions });
      session = answer.session;
      return {};
    },
    async getCards(input = {}) {
      return call('getCards', { consumerIdentity: input.consumerIdentity, validationData: input.validationData });
    },
    async checkout(input = {}) {
      const prepared = await call('prepare', {
        srcDigitalCardId: input.srcDigitalCardId,
        encryptedCard: input.encryptedCard,
        dpaTransactionOptions: input.dpaTransactionOptions,
      });
      return hostedUi(prepared.checkoutId);
    },
    async unbindAppInstance() {
      await call('unbindAppInstance', {});
      return {};
    },
  };
})();
