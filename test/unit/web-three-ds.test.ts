import { describe, expect, it } from 'vitest';
import { acsTarget, cresOf, newSessionData, NOTIFICATION_MESSAGE_TYPE } from '../../web/src/three-ds-challenge.js';
import { NOTIFICATION_MESSAGE_TYPE as SERVED_TYPE } from '../../functions/three-ds-notification/page.js';

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
