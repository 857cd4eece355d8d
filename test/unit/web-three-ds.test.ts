import { describe, expect, it } from 'vitest';
import { acsTarget, cresOf, newSessionData, NOTIFICATION_MESSAGE_TYPE } from '../../web/src/three-ds-challenge.js';
import { NOTIFICATION_MESSAGE_TYPE as SERVED_TYPE } from '../../functions/three-ds-notification/page.js';
import { METHOD_MESSAGE_TYPE as SERVED_METHOD_TYPE } from '../../functions/three-ds-method-notification/page.js';
import { isMethodCompletion, METHOD_MESSAGE_TYPE, METHOD_TIMEOUT_MS } from '../../web/src/three-ds-method.js';
import { challengeWindowSizeFor, collectBrowserInfo, WINDOW_SIZES } from '../../web/src/three-ds-browser.js';

/** The page's half of the EMV 3DS browser challenge (web/src/three-ds-challenge.ts). */
describe('the challenge step’s checks', () => {
  const frame = {};
  const expected = { origin: 'https://pay.example', frame, sessionData: 'c2Vzc2lvbg' };
  const message = { type: NOTIFICATION_MESSAGE_TYPE, cres: 'eyJtIjoxfQ', threeDSSessionData: 'c2Vzc2lvbg' };

  it('takes the cres from the notification page of our origin, in our frame, with our session data', () => {
    expect(SERVED_TYPE).toBe(NOTIFICATION_MESSAGE_TYPE);
    expect(cresOf({ origin: 'https://pay.example', source: frame as never, data: message }, expected)).toBe('eyJtIjoxfQ');
  });

  it('ignores messages from the ACS’s origin or any other, from another window, of another challenge or shape', () => {
    const cases = [
      { origin: 'https://acs.bank.example', source: frame, data: message },
      { origin: 'null', source: frame, data: message },
      { origin: 'https://pay.example', source: {}, data: message },
      { origin: 'https://pay.example', source: null, data: message },
      { origin: 'https://pay.example', source: frame, data: { ...message, threeDSSessionData: 'b3RoZXI' } },
      { origin: 'https://pay.example', source: frame, data: { ...message, type: 'ctp-3ds-complete' } },
      { origin: 'https://pay.example', source: frame, data: { ...message, cres: 42 } },
      { origin: 'https://pay.example', source: frame, data: { ...message, cres: '<script>' } },
      { origin: 'https://pay.example', source: frame, data: 'eyJtIjoxfQ' },
      { origin: 'https://pay.example', source: frame, data: null },
    ];
    for (const event of cases) expect(cresOf(event as never, expected), JSON.stringify(event)).toBeUndefined();
  });

  it('posts only to http(s) ACS URLs; the session data is fresh random base64url', () => {
    expect(acsTarget('http://127.0.0.1:4100/sandbox/3ds/challenge', 'http://localhost:3000/checkout')).toBe('http://127.0.0.1:4100/sandbox/3ds/challenge');
    expect(acsTarget('/sandbox/3ds/challenge', 'https://pay.example/checkout')).toBe('https://pay.example/sandbox/3ds/challenge');
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'http://[']) expect(acsTarget(bad, 'https://pay.example/'), bad).toBeUndefined();
    const a = newSessionData();
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(newSessionData()).not.toBe(a);
  });
});

/** The page's half of the 3DS Method (web/src/three-ds-method.ts) and its browserInfo (web/src/three-ds-browser.ts). */
describe('the 3DS Method step’s checks', () => {
  const frame = {};
  const id = '6B91F61E-9E62-4F5C-AB8C-F1FFB84122CB';
  const expected = { origin: 'https://pay.example', frame, transactionId: id.toLowerCase() };
  const message = { type: METHOD_MESSAGE_TYPE, threeDSServerTransID: id.toLowerCase() };

  it('takes the completion of this transaction from the notification page of our origin, in our hidden frame', () => {
    expect(SERVED_METHOD_TYPE).toBe(METHOD_MESSAGE_TYPE);
    expect(isMethodCompletion({ origin: 'https://pay.example', source: frame as never, data: message }, expected)).toBe(true);
    expect(isMethodCompletion({ origin: 'https://pay.example', source: frame as never, data: { ...message, threeDSServerTransID: id } }, expected)).toBe(true);
    for (const event of [
      { origin: 'https://acs.bank.example', source: frame, data: message },
      { origin: 'https://pay.example', source: {}, data: message },
      { origin: 'https://pay.example', source: frame, data: { ...message, threeDSServerTransID: crypto.randomUUID() } },
      { origin: 'https://pay.example', source: frame, data: { ...message, type: 'ctp-3ds-notification' } },
      { origin: 'https://pay.example', source: frame, data: null },
    ])
      expect(isMethodCompletion(event as never, expected), JSON.stringify(event)).toBe(false);
  });

  it('gives up after 10 s (EMV 3DS: the method failed, threeDSCompInd N)', () => {
    expect(METHOD_TIMEOUT_MS).toBe(10_000);
  });

  it('chooses the challenge window by the viewport: full screen (05) on a 375 px phone, else the widest fixed size the panel has room for', () => {
    expect(challengeWindowSizeFor(375, 335)).toBe('05');
    expect(challengeWindowSizeFor(599, 560)).toBe('05');
    expect(challengeWindowSizeFor(1280, 364)).toBe('01'); // a panel narrower than 390 px
    expect(challengeWindowSizeFor(1280, 404)).toBe('02'); // the hosted page's desktop panel
    expect(challengeWindowSizeFor(1280, 520)).toBe('03');
    expect(challengeWindowSizeFor(1280)).toBe('04');
    expect(WINDOW_SIZES['02']).toEqual({ width: 390, height: 400 });
  });

  it('collects what the AReq needs, with the Accept header the server put in the bootstrap', () => {
    const win = {
      navigator: { language: 'ar-AE', javaEnabled: () => false },
      screen: { colorDepth: 30, height: 812, width: 375 },
      innerWidth: 375,
      document: { documentElement: { clientWidth: 375 }, querySelector: () => null },
    } as unknown as Window;
    expect(collectBrowserInfo('text/html,*/*;q=0.8', win)).toEqual({
      acceptHeader: 'text/html,*/*;q=0.8',
      language: 'ar-AE',
      colorDepth: 30,
      screenHeight: 812,
      screenWidth: 375,
      timeZoneOffset: new Date().getTimezoneOffset(),
      javaEnabled: false,
      challengeWindowSize: '05',
    });
  });
});
