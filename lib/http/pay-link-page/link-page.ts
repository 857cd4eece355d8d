import { createHash } from 'node:crypto';
import { pageHeaders } from '../checkout-page/security-headers.js';

export type LinkPageKind = 'EXPIRED' | 'CANCELLED' | 'PAID' | 'UNAVAILABLE' | 'DISABLED' | 'NOT_FOUND' | 'DOWN';

const TEXT: Record<LinkPageKind, { status: number; title: string; body: string }> = {
  EXPIRED: { status: 410, title: 'This payment link has expired', body: 'Ask the merchant for a new link if you still want to pay.' },
  CANCELLED: { status: 410, title: 'This payment link is no longer available', body: 'The merchant has cancelled it. Contact them if you still want to pay.' },
  PAID: { status: 410, title: 'This payment link has already been paid', body: 'There is nothing more to pay. The merchant has your payment.' },
  UNAVAILABLE: { status: 410, title: 'This payment link can no longer be used', body: 'Contact the merchant for a new link.' },
  DISABLED: {
    status: 403,
    title: 'This payment link cannot be paid right now',
    body: 'The merchant does not accept payments by link at the moment. Contact them to pay another way.',
  },
  NOT_FOUND: { status: 404, title: 'Payment link not found', body: 'Check that you opened the complete link the merchant sent you.' },
  DOWN: { status: 503, title: 'Payments are temporarily unavailable', body: 'Please open the link again in a moment.' },
};

/**
 * The checkout page's look (web/src/styles.css: its colours, type and panel) for the pages a
 * payment link shows instead of the checkout: self-contained, no script, no external file.
 * The stylesheet is inline and allowed by its hash alone, so the CSP stays as strict as the
 * checkout page's (nothing else may style, script, frame or submit).
 */
const STYLE = `
:root{--ink:#0f172a;--muted:#64748b;--line:#e2e8f0;--bg:#f1f5f9;--surface:#fff;--accent:#1d4ed8;--radius:14px;--shadow:0 1px 2px rgb(15 23 42/6%),0 8px 24px rgb(15 23 42/8%);color-scheme:light}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--ink);font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;-webkit-font-smoothing:antialiased}
.topbar{background:var(--surface);border-bottom:1px solid var(--line)}
.topbar-inner{max-width:480px;margin:0 auto;padding:12px 16px;font-weight:650;font-size:17px}
.main{max-width:480px;margin:0 auto;padding:20px 16px}
.panel{background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);box-shadow:var(--shadow);padding:24px 20px;text-align:center}
.icon{width:48px;height:48px;margin:0 auto 12px;border-radius:50%;display:grid;place-items:center;background:#eff6ff;color:var(--accent);font-size:24px;font-weight:700}
h1{font-size:20px;line-height:1.3;margin:0 0 8px}
p{margin:0;color:var(--muted)}
`;

export const LINK_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self' data:",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A whole response: status, the checkout page's security headers with this page's CSP, and the HTML. */
export function linkPage(kind: LinkPageKind) {
  const { status, title, body } = TEXT[kind];
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head>` +
    `<body><header class="topbar"><div class="topbar-inner">Payment link</div></header>` +
    `<main class="main"><section class="panel" data-link-page="${kind}"><div class="icon" aria-hidden="true">${kind === 'PAID' ? '✓' : 'i'}</div>` +
    `<h1>${title}</h1><p>${body}</p></section></main></body></html>`;
  return {
    statusCode: status,
    headers: { ...pageHeaders(LINK_PAGE_CSP), ...(status === 503 ? { 'Retry-After': '5' } : {}) },
    body: html,
  };
}
