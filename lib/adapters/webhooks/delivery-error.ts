import type { DeliveryError } from '../../core/ports/webhook-sender.js';

export type { DeliveryError };

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA', 'ESERVFAIL', 'EDNSTIMEOUT', 'ETIMEOUT']);

/** Certificate verification failures carry OpenSSL's X509 names as codes. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'HOSTNAME_MISMATCH',
]);

/** Maps an error from `lookup`, `net`, `tls` or `http` to the delivery error it stands for. */
export function deliveryErrorOf(error: unknown): DeliveryError {
  const details = (error ?? {}) as { code?: unknown; library?: unknown };
  const code = typeof details.code === 'string' ? details.code : '';
  if (code === 'EBLOCKEDADDRESS') return 'blocked-address';
  if (DNS_CODES.has(code)) return 'dns';
  if (
    CERTIFICATE_CODES.has(code) ||
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code === 'EPROTO' || // a TLS handshake with something that does not speak TLS
    details.library === 'SSL routines'
  ) {
    return 'tls';
  }
  return 'connection';
}
