/**
 * EMV 3DS 2.2's browser challenge, the page's half (docs/integrating/three-ds.md): a hidden form
 * POSTs the creq into the challenge frame at the ACS (any origin); the ACS ends by POSTing the
 * cres to the service's notification URL in that frame, whose page posts it here.
 */

/** The message of POST /checkout/3ds-notification (functions/three-ds-notification/page.ts). */
export const NOTIFICATION_MESSAGE_TYPE = 'ctp-3ds-notification';

/** A fresh threeDSSessionData: random, so a message can be tied to this challenge; never a token. */
export function newSessionData(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Only http(s) ACS URLs are posted to (the CSP also limits which origins). */
export function acsTarget(acsUrl: string, base: string): string | undefined {
  try {
    const url = new URL(acsUrl, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Form-POSTs creq and threeDSSessionData to the ACS into the frame named `target`. */
export function postCreq(doc: Document, target: string, acsUrl: string, creq: string, sessionData: string): void {
  const form = doc.createElement('form');
  form.method = 'post';
  form.action = acsUrl;
  form.target = target;
  form.enctype = 'application/x-www-form-urlencoded';
  form.hidden = true;
  for (const [name, value] of [
    ['creq', creq],
    ['threeDSSessionData', sessionData],
  ] as const) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  doc.body.appendChild(form);
  form.submit();
  form.remove();
}

/**
 * The cres of a notification message, if it is the one this challenge waits for: sent by our
 * own origin (the notification page), from our challenge frame, with our threeDSSessionData.
 */
export function cresOf(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  expected: { origin: string; frame: unknown; sessionData: string },
): string | undefined {
  if (event.origin !== expected.origin) return undefined;
  if (!expected.frame || event.source !== expected.frame) return undefined;
  const data = event.data as { type?: unknown; cres?: unknown; threeDSSessionData?: unknown } | null;
  if (!data || typeof data !== 'object' || data.type !== NOTIFICATION_MESSAGE_TYPE) return undefined;
  if (data.threeDSSessionData !== expected.sessionData) return undefined;
  return typeof data.cres === 'string' && /^[A-Za-z0-9_-]+={0,2}$/.test(data.cres) ? data.cres : undefined;
}
