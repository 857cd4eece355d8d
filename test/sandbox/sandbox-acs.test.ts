import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as acs } from '../../functions/sandbox-acs/handler.js';
import { invoke } from '../support/invoke.js';
import { checkoutResponse } from '../support/checkout.js';
import { answerChallenge, formField, pay, postToAcs } from '../support/payments.js';
import { seedWorld } from '../support/seed.js';
import { platformToken } from '../support/tokens.js';

/**
 * The sandbox ACS works like an issuer's (SPEC §5, 4.10; EMV 3DS 2.2 browser challenge): a
 * form-POSTed creq, the challenge, then the final CRes form-POSTed to the notification URL.
 */
let token: string;
beforeAll(async () => {
  token = await platformToken();
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function challenge() {
  const world = await seedWorld();
  const awaiting = await pay(world, token, await checkoutResponse({ card: 'visa-3ds' }));
  expect(awaiting.body.state).toBe('AWAIT_3DS');
  return awaiting.body.threeDs as { acsUrl: string; creq: string; transactionId: string };
}

const decode = (value: string) => JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, string>;
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const SESSION_DATA = 'c2Vzc2lvbi1kYXRhLTEyMw';

describe('sandbox ACS: the creq', () => {
  it('is an EMV CReq naming only the transaction (no order or payment), for the ACS URL', async () => {
    const threeDs = await challenge();
    expect(threeDs.acsUrl).toBe('https://pay.test.example/sandbox/3ds/challenge'); // SANDBOX_ACS_BASE_URL unset: the service's own
    expect(decode(threeDs.creq)).toEqual({
      messageType: 'CReq',
      messageVersion: '2.2.0',
      threeDSServerTransID: threeDs.transactionId,
      acsTransID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      challengeWindowSize: '05',
    });
  });

  it('form-POSTed: the challenge, framable only by the service, its form posting back to the ACS with the session data', async () => {
    const threeDs = await challenge();
    const shown = await postToAcs({ creq: threeDs.creq, threeDSSessionData: SESSION_DATA });
    expect(shown.status).toBe(200);
    expect(shown.raw).toContain('Verify your payment');
    expect(shown.raw).toMatch(/<form method="post">/); // no action: back to this very URL, whatever its origin
    expect(formField(shown.raw, 'creq')).toBe(threeDs.creq);
    expect(formField(shown.raw, 'threeDSSessionData')).toBe(SESSION_DATA);
    const csp = shown.headers['Content-Security-Policy']!;
    expect(csp).toContain('frame-ancestors https://pay.test.example');
    expect(csp).toContain("form-action 'self' https://pay.test.example");
    expect(csp).toContain("default-src 'none'");
    // One script, allowed by its nonce alone: the code field takes focus once the frame has it
    // (autofocus is ignored in a cross-origin frame).
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(shown.raw.match(/<script\b[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
    expect(csp).not.toMatch(/unsafe-inline'[^;]*script|script-src[^;]*unsafe/);
  });

  it('refuses GET (405, Allow: POST), another content type (415), a bad creq or session data (400), without echoing it', async () => {
    const threeDs = await challenge();
    const get = await invoke(acs, { method: 'GET', path: '/sandbox/3ds/challenge', query: { creq: threeDs.creq } });
    expect([get.status, get.headers.Allow]).toEqual([405, 'POST']);
    const json = await invoke(acs, { method: 'POST', path: '/sandbox/3ds/challenge', body: { creq: threeDs.creq } });
    expect(json.status).toBe(415);
    const noType = await postToAcs({ creq: threeDs.creq }, 'text/plain');
    expect(noType.status).toBe(415);
    const creq = decode(threeDs.creq);
    const xss = '"><script>alert(1)</script>';
    for (const bad of [
      {},
      { creq: '' },
      { creq: 'not base64url!' },
      { creq: encode({ ...creq, messageType: 'CRes' }) },
      { creq: encode({ ...creq, threeDSServerTransID: xss }) },
      { creq: encode({ ...creq, challengeWindowSize: '09' }) },
      { creq: xss },
      { creq: threeDs.creq, threeDSSessionData: xss },
      { creq: threeDs.creq, threeDSSessionData: 'a'.repeat(1025) },
    ]) {
      const response = await postToAcs(bad as Record<string, string>);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.raw).not.toContain('<script>alert(1)');
      expect(response.headers['Content-Type']).toBe('text/html; charset=utf-8');
    }
  });

  it('does not know a transaction it never started, nor a creq with another acsTransID (404)', async () => {
    const threeDs = await challenge();
    const creq = decode(threeDs.creq);
    expect((await postToAcs({ creq: encode({ ...creq, threeDSServerTransID: crypto.randomUUID() }) })).status).toBe(404);
    expect((await postToAcs({ creq: encode({ ...creq, acsTransID: crypto.randomUUID() }) })).status).toBe(404);
  });
});

describe('sandbox ACS: the answer', () => {
  it('code 1234 → a CRes with transStatus Y, form-POSTed with the session data to the notification URL', async () => {
    const threeDs = await challenge();
    const { page, cres } = await answerChallenge(threeDs, '1234', SESSION_DATA);
    expect(page.status).toBe(200);
    expect(page.raw).toContain('<form id="cres-form" method="post" action="https://pay.test.example/checkout/3ds-notification">');
    expect(formField(page.raw, 'threeDSSessionData')).toBe(SESSION_DATA);
    expect(decode(cres!)).toEqual({
      messageType: 'CRes',
      messageVersion: '2.2.0',
      threeDSServerTransID: threeDs.transactionId,
      acsTransID: decode(threeDs.creq).acsTransID,
      challengeCompletionInd: 'Y',
      transStatus: 'Y',
    });
    // The auto-submit is the one script, allowed by its nonce; the form may go only to the service.
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers['Content-Security-Policy']!)?.[1];
    expect(page.raw).toContain(`<script nonce="${nonce}">`);
    expect(page.headers['Content-Security-Policy']).toContain("form-action 'self' https://pay.test.example");
  });

  it('a wrong code → a CRes with transStatus N; the ACS answers once (409 after)', async () => {
    const threeDs = await challenge();
    const { page, cres } = await answerChallenge(threeDs, '0000');
    expect(page.raw).toContain('Verification failed');
    expect(decode(cres!).transStatus).toBe('N');
    const again = await postToAcs({ creq: threeDs.creq, code: '1234' });
    expect(again.status).toBe(409);
    expect((await postToAcs({ creq: threeDs.creq })).status).toBe(409);
  });
});

describe('sandbox ACS: a dependency failure', () => {
  // The shopper must not be told their challenge is bad when the ACS's own store is down: SPEC §2
  // asks for 503 with Retry-After, so the browser (and the shopper) can try again.
  it('DynamoDB unavailable → 503 with Retry-After, not 400 "not valid"', async () => {
    const { SandboxAcsRepository } = await import('../../lib/adapters/sandbox/sandbox-acs-repository.js');
    const { DependencyUnavailableError } = await import('../../lib/core/errors.js');
    const { handler: acs } = await import('../../functions/sandbox-acs/handler.js');
    vi.spyOn(SandboxAcsRepository.prototype, 'get').mockRejectedValue(new DependencyUnavailableError());
    const creq = Buffer.from(
      JSON.stringify({
        threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e',
        acsTransID: '0b6c7a52-3f0e-4b7e-9d51-2f6f3c1e9a10',
        messageType: 'CReq',
        messageVersion: '2.2.0',
        challengeWindowSize: '05',
      }),
    ).toString('base64url');
    const shown = await invoke(acs as never, {
      method: 'POST',
      path: '/sandbox/3ds/challenge',
      body: new URLSearchParams({ creq }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(shown.status).toBe(503);
    expect(shown.headers['Retry-After']).toBeDefined();
  });
});
