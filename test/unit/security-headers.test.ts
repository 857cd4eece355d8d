import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../lib/http/checkout-page/security-headers.js';

/** The hosted page's CSP as directive → sources. */
function parse(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources]),
  );
}

const FIXED = {
  'default-src': ["'none'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
};

describe('the hosted page CSP admits exactly the configured SDK origins', () => {
  it('without SDKs: scripts, frames and connections from the page itself only', () => {
    const csp = parse(contentSecurityPolicy(undefined));
    for (const name of ['script-src', 'frame-src', 'connect-src']) expect(csp.get(name), name).toEqual(["'self'"]);
    for (const [name, sources] of Object.entries(FIXED)) expect(csp.get(name), name).toEqual(sources);
    expect([...csp.keys()].sort()).toEqual([...Object.keys(FIXED), 'script-src', 'frame-src', 'connect-src'].sort());
  });

  it('with SDKs: each configured origin once (scheme, host and port; never the path or query), in script-src, frame-src and connect-src only', () => {
    const csp = parse(
      contentSecurityPolicy({
        visa: 'https://secure.checkout.visa.com/checkout-widget/resources/js/integration/v2/sdk.js?dpaId=x',
        'visa-card-key': 'https://secure.checkout.visa.com/keys/card-encryption',
        mastercard: 'http://127.0.0.1:4317/srci/integration/2/lib.js',
      }),
    );
    const expected = ["'self'", 'https://secure.checkout.visa.com', 'http://127.0.0.1:4317'];
    for (const name of ['script-src', 'frame-src', 'connect-src']) expect(csp.get(name), name).toEqual(expected);
    // Nothing else widens: no other directive names an SDK origin, no wildcard, no inline code.
    for (const [name, sources] of Object.entries(FIXED)) expect(csp.get(name), name).toEqual(sources);
    const all = [...csp.values()].flat();
    expect(all.filter((source) => source === '*' || /unsafe|^https?:$|\*\./.test(source))).toEqual([]);
  });
});
