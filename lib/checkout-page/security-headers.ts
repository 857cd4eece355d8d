/**
 * Response headers of the hosted checkout page. The page URL carries the session token, so
 * no Referer may ever leave it; the HTML is per-session (no-store); assets are content-hashed
 * (cached for a year). Scripts only from our origin — plus the real networks' SDK origins
 * when CLICK_TO_PAY_SDK_URLS names them (they also need to connect and frame).
 */
export function contentSecurityPolicy(sdkUrls: Record<string, string> | undefined): string {
  const origins = [...new Set(Object.values(sdkUrls ?? {}).map((url) => new URL(url).origin))];
  const withSdk = (directive: string) => [directive, "'self'", ...origins].join(' ');
  return [
    "default-src 'none'",
    withSdk('script-src'),
    "style-src 'self'",
    "img-src 'self' data:",
    withSdk('connect-src'),
    withSdk('frame-src'),
    "form-action 'self'",
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
