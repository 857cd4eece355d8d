/**
 * Response headers of the hosted checkout page. The page URL carries the session token, so
 * no Referer may ever leave it; the HTML is per-session (no-store); assets are content-hashed
 * (cached for a year). Scripts only from our origin — plus the real networks' SDK origins
 * when CLICK_TO_PAY_SDK_URLS names them (they also need to connect and frame). The 3DS ACS
 * origins (acsThreeDsOrigins) may be framed and form-POSTed to, nothing more.
 */
export function contentSecurityPolicy(sdkUrls: Record<string, string> | undefined, acsOrigins: readonly string[] = []): string {
  const origins = [...new Set(Object.values(sdkUrls ?? {}).map((url) => new URL(url).origin))];
  const withSdk = (directive: string) => [directive, "'self'", ...origins].join(' ');
  // The 3DS challenge (SPEC 4.10): a hidden form POSTs the creq to the ACS into a frame.
  const acs = [...new Set(acsOrigins)];
  return [
    "default-src 'none'",
    withSdk('script-src'),
    "style-src 'self'",
    "img-src 'self' data:",
    withSdk('connect-src'),
    [withSdk('frame-src'), ...acs.filter((o) => !origins.includes(o))].join(' '),
    ["form-action 'self'", ...acs].join(' '),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const COMMON = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

export function pageHeaders(csp: string): Record<string, string> {
  return {
    ...COMMON,
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': csp,
    'X-Frame-Options': 'DENY',
  };
}

export function assetHeaders(contentType: string): Record<string, string> {
  return {
    ...COMMON,
    'Content-Type': contentType,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

/**
 * The ACS origins the page admits for a challenge and a 3DS Method: the sandbox ACS
 * (SANDBOX_ACS_BASE_URL, when it is served apart from the service) and the production ones
 * (THREE_DS_ACS_ORIGINS). The page's CSP is fixed when it loads, before 4.3 knows whether and
 * where a challenge runs, so it admits every configured ACS origin rather than the one of a
 * challenge. With a production 3DS Server and no list: `https:` — any issuer's ACS, which no
 * list can name in advance (docs/integrating/three-ds.md, "CSP"). Scripts, styles and
 * connections stay our own: an ACS origin may only be framed and form-POSTed to.
 */
export function acsThreeDsOrigins(sandboxAcsBaseUrl: string | undefined, configured: readonly string[] | undefined, productionThreeDsServer = false): string[] {
  const production = configured ?? (productionThreeDsServer ? ['https:'] : []);
  return [...new Set([...(sandboxAcsBaseUrl ? [new URL(sandboxAcsBaseUrl).origin] : []), ...production])];
}
