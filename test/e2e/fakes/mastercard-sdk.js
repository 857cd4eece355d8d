/*
 * FAKE of Mastercard's Click to Pay integration SDK (lib.js → new MastercardCheckoutServices()),
 * for the browser suite only. Served from its own loopback origin by fake-network-server.ts.
 *
 * Written from the public reference, nothing more:
 *  - juspay/hyperswitch-web src/Types/ClickToPayHelpers.res and wellingtonsilverio/react-clicktopay
 *    src/lib/functions/*.js (open-source integrations):
 *      init({ srcDpaId, dpaData: { dpaName }, dpaTransactionOptions, cardBrands, checkoutExperience })
 *      idLookup({ email } | { mobileNumber: { countryCode, phoneNumber } }) → { consumerPresent }
 *      initiateValidation({ requestedValidationChannelId? }) → { maskedValidationChannel, … }
 *      validate(<one-time code>) → masked cards        (react-clicktopay passes the code as is)
 *      getCards() → masked cards
 *      encryptCard({ primaryAccountNumber, panExpirationMonth, panExpirationYear, cardSecurityCode,
 *        cardholderFirstName?, cardholderLastName? }) → { encryptedCard, cardBrand }
 *      checkoutWithCard({ srcDigitalCardId, windowRef, rememberMe?, dpaTransactionOptions? })
 *      checkoutWithNewCard({ encryptedCard, cardBrand, windowRef, consumer?, complianceSettings?, … })
 *        → { checkoutActionCode: COMPLETE | CANCEL | ERROR | PAY_V3_CARD | CHANGE_CARD |
 *            SWITCH_CONSUMER, checkoutResponse, headers, … }
 *      signOut()
 *  - developer.mastercard.com "Perform Encryption", step 2: the card is encrypted with the FPAN
 *    encryption key Mastercard publishes (…/keys/mcs/fpanEncryption); "checkout-method": the DCF
 *    runs in the window the integrator passes as windowRef.
 * Silent in the reference, so chosen here: the error object a rejected call carries
 * (`{ reason, message }`), the JWE algorithms of encryptCard (RSA-OAEP-256 + A256GCM, as
 * Visa's card encryption in hyperswitch), and how the DCF window answers (postMessage). A
 * DCF window closed without an answer resolves CANCEL.
 */
(() => {
  const origin = new URL(document.currentScript.src).origin;

  const b64url = (bytes) =>
    btoa(String.fromCharCode(...new Uint8Array(bytes)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');

  async function jwe(plaintext, jwk) {
    const subtle = crypto.subtle;
    const header = b64url(new TextEncoder().encode(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: jwk.kid })));
    const key = await subtle.importKey(
      'jwk',
      { kty: 'RSA', n: jwk.n, e: jwk.e, alg: 'RSA-OAEP-256', ext: true },
      { name: 'RSA-OAEP', hash: 'SHA-256' },
      false,
      ['encrypt'],
    );
    const cek = crypto.getRandomValues(new Uint8Array(32));
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const wrapped = await subtle.encrypt({ name: 'RSA-OAEP' }, key, cek);
    const aes = await subtle.importKey('raw', cek, { name: 'AES-GCM' }, false, ['encrypt']);
    const sealed = new Uint8Array(
      await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(header) }, aes, new TextEncoder().encode(plaintext)),
    );
    return [header, b64url(wrapped), b64url(iv), b64url(sealed.slice(0, -16)), b64url(sealed.slice(-16))].join('.');
  }

  function dcf(windowRef, checkoutId) {
    return new Promise((resolve) => {
      const target = windowRef && !windowRef.closed ? windowRef : window.open('', 'mastercard-dcf', 'width=480,height=600');
      if (!target) return resolve({ checkoutActionCode: 'ERROR' });
      target.location.href = `${origin}/dcf?${new URLSearchParams({ checkout: checkoutId, parent: location.origin, mode: 'window' })}`;
      let done = false;
      const finish = (result) => {
        if (done) return;
        done = true;
        window.removeEventListener('message', onMessage);
        clearInterval(watch);
        resolve(result);
      };
      const onMessage = (event) => {
        if (event.origin !== origin || !event.data || event.data.type !== 'fake-dcf-result' || event.data.checkout !== checkoutId) return;
        finish(event.data.result);
      };
      const watch = setInterval(() => target.closed && setTimeout(() => finish({ checkoutActionCode: 'CANCEL' }), 200), 250);
      window.addEventListener('message', onMessage);
    });
  }

  class MastercardCheckoutServices {
    #session;

    async #call(op, body = {}) {
      const response = await fetch(`${origin}/api/${op}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...body, session: this.#session }),
      });
      const answer = await response.json();
      if (!response.ok) throw answer;
      return answer;
    }

    async init(params = {}) {
      const answer = await this.#call('init', { srcDpaId: params.srcDpaId });
      this.#session = answer.session;
      return { availableCardBrands: params.cardBrands ?? [] };
    }
    idLookup(input = {}) {
      return this.#call('idLookup', input);
    }
    initiateValidation(input = {}) {
      return this.#call('initiateValidation', input);
    }
    validate(code) {
      return this.#call('validate', { value: code });
    }
    getCards() {
      return this.#call('getCards');
    }
    async encryptCard(card = {}) {
      const published = await (await fetch(`${origin}/keys/mcs/fpanEncryption`)).json();
      const key = published.keys[0];
      const pan = String(card.primaryAccountNumber ?? '');
      return { encryptedCard: await jwe(JSON.stringify(card), key), cardBrand: pan.startsWith('4') ? 'visa' : 'mastercard' };
    }
    async checkoutWithCard(input = {}) {
      const prepared = await this.#call('prepare', { srcDigitalCardId: input.srcDigitalCardId, dpaTransactionOptions: input.dpaTransactionOptions });
      return dcf(input.windowRef, prepared.checkoutId);
    }
    async checkoutWithNewCard(input = {}) {
      const prepared = await this.#call('prepare', { encryptedCard: input.encryptedCard, dpaTransactionOptions: input.dpaTransactionOptions });
      return dcf(input.windowRef, prepared.checkoutId);
    }
    async signOut() {
      return this.#call('signOut');
    }
  }

  window.MastercardCheckoutServices = MastercardCheckoutServices;
})();
