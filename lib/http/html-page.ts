import { randomBytes } from 'node:crypto';

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * A value as a JavaScript literal inside an inline <script>: JSON with `<`, `>`, `&` and the
 * JS line separators escaped, so no value can close the element or open a comment.
 */
export function scriptLiteral(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A fresh CSP nonce for one response's inline script. */
export const scriptNonce = (): string => randomBytes(16).toString('base64');

/** The body of a form-POSTed request (application/x-www-form-urlencoded), or undefined for any other type. */
export function formBody(event: {
  body?: string | undefined;
  isBase64Encoded?: boolean;
  headers?: Record<string, string | undefined>;
}): URLSearchParams | undefined {
  const type = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  if (type.split(';')[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded') return undefined;
  return new URLSearchParams(event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString() : (event.body ?? ''));
}

/** The form values the EMV 3DS browser flow passes along verbatim: base64url, bounded. */
export const isBase64Url = (value: string, maxLength: number): boolean => value.length > 0 && value.length <= maxLength && /^[A-Za-z0-9_-]+={0,2}$/.test(value);
