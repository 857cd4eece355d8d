import type { SessionContext } from '../bootstrap.js';

/**
 * Hosted payment page (SPEC 4.8): the way back to the shop. "Back" goes to returnUrl,
 * "Cancel" to cancelUrl (else returnUrl), each with `orderRef=<orderRef>` added to the query.
 * The merchant learns the outcome from GET order or a webhook, never from this redirect.
 */
export type Leave = 'back' | 'cancel';

/** Shows the result this long before sending the shopper back on their own (long enough to read it). */
export const AUTO_RETURN_MS = 3_000;

/** The address to send the shopper to, or undefined when the session has no (usable) return URL. */
export function returnTarget(context: SessionContext | undefined, leave: Leave, orderRef: string): string | undefined {
  const base = leave === 'cancel' ? (context?.cancelUrl ?? context?.returnUrl) : (context?.returnUrl ?? context?.cancelUrl);
  if (!base) return undefined;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return undefined;
  // The shop's own parameters stay byte for byte (no re-encoding); an orderRef of its own is replaced.
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !/^orderRef(=|$)/.test(pair));
  kept.push(`orderRef=${encodeURIComponent(orderRef)}`);
  url.search = `?${kept.join('&')}`;
  return url.href;
}
