/**
 * Decryption of the checkout payload JWE (SPEC §4.3 step 5), built so that the recipient's
 * private key can stay in KMS: only the content-encryption key (CEK) unwrap goes through
 * the `ContentKeyUnwrapper` port; the content is decrypted here with node:crypto.
 *
 * Every failure is the same `CheckoutDecryptionFailedError` with the same detail, so a
 * caller cannot tell a bad header from a bad key from a bad tag (RFC 7516 §11.5); the
 * precise reason goes into `cause` for the logs.
 */
import { createDecipheriv, createHmac, randomBytes, timingSafeEqual, type Decipher } from 'node:crypto';
import { CheckoutDecryptionFailedError, DependencyUnavailableError, InternalError } from '../errors.js';
import { decodeCanonicalBase64url } from './base64url.js';

export type KeyWrapAlgorithm = 'RSA-OAEP' | 'RSA-OAEP-256';
export type ContentEncryption = 'A128GCM' | 'A256GCM' | 'A128CBC-HS256';

export interface ContentKeyUnwrapper {
  /**
   * `kid` is the JWE's, or undefined when it has none (RFC 7516 §4.1.6 makes it optional):
   * then, as for a kid the unwrapper does not know, each recipient key is tried (SPEC §4.3
   * step 5).
   */
  unwrap(kid: string | undefined, alg: KeyWrapAlgorithm, encryptedKey: Uint8Array): Promise<Uint8Array>;
}

const KEY_WRAP_ALGORITHMS: ReadonlySet<string> = new Set<KeyWrapAlgorithm>(['RSA-OAEP', 'RSA-OAEP-256']);
/** CEK and IV lengths in bytes; every supported `enc` uses a 16-byte tag. */
const CONTENT: Record<ContentEncryption, { cekLength: number; ivLength: number }> = {
  A128GCM: { cekLength: 16, ivLength: 12 },
  A256GCM: { cekLength: 32, ivLength: 12 },
  'A128CBC-HS256': { cekLength: 32, ivLength: 16 },
};
const TAG_LENGTH = 16;
/** The JWE travels inside a JWS of at most 32 KiB (SPEC §6), so it is never larger. */
const MAX_JWE_LENGTH = 32 * 1024;

export async function decryptCheckoutJwe(compact: string, unwrapper: ContentKeyUnwrapper): Promise<Uint8Array> {
  try {
    const jwe = parseCompactJwe(compact);
    const cek: unknown = await unwrapper.unwrap(jwe.kid, jwe.alg, jwe.encryptedKey);
    // A CEK of the wrong length must fail exactly like a bad tag (RFC 7516 §11.5): carry on
    // with a random key of the right length, so the work done and the error are the same.
    const { cekLength } = CONTENT[jwe.enc];
    const wrongLength = !(cek instanceof Uint8Array) || cek.length !== cekLength;
    const key = wrongLength ? randomBytes(cekLength) : cek;
    try {
      const plaintext = decryptJweContent(jwe.enc, key, jwe.iv, jwe.ciphertext, jwe.tag, jwe.aad);
      if (wrongLength) throw authenticationFailed(); // in case a random key ever authenticated
      return plaintext;
    } finally {
      // The CEK is ours now: do not leave it on the heap.
      key.fill(0);
      if (cek instanceof Uint8Array) cek.fill(0);
    }
  } catch (error) {
    // A KMS outage is retryable (503) and a misconfigured key is ours (500): neither is the
    // client's fault, so both keep their status.
    if (error instanceof DependencyUnavailableError || error instanceof InternalError) throw error;
    throw new CheckoutDecryptionFailedError(undefined, { cause: error });
  }
}

interface ParsedJwe {
  alg: KeyWrapAlgorithm;
  enc: ContentEncryption;
  kid: string | undefined;
  aad: Uint8Array;
  encryptedKey: Uint8Array;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
}

function parseCompactJwe(compact: string): ParsedJwe {
  if (typeof compact !== 'string') throw new Error('JWE is not a string');
  if (compact.length > MAX_JWE_LENGTH) throw new Error('JWE over size limit');
  const segments = compact.split('.');
  if (segments.length !== 5) throw new Error(`JWE has ${segments.length} segments, expected 5`);
  const [encodedHeader = '', ...rest] = segments;

  // Header policy first: an unsupported `alg` (e.g. `dir`, with its empty key segment) is
  // reported as what it is.
  const header = parseHeader(decodeSegment(encodedHeader, false));
  const { alg, enc, kid } = header;
  if (typeof alg !== 'string' || !KEY_WRAP_ALGORITHMS.has(alg)) throw new Error('unsupported alg');
  if (typeof enc !== 'string' || !Object.hasOwn(CONTENT, enc)) throw new Error('unsupported enc');
  if ('zip' in header) throw new Error('zip header present'); // compressed plaintext is a CRIME-style oracle
  if ('crit' in header) throw new Error('crit header present');
  // No `kid` goes to the key trial; one that is there must be a usable id, not `""` or 5.
  if (kid !== undefined && (typeof kid !== 'string' || kid.length === 0)) throw new Error('kid is not a non-empty string');

  // Only the ciphertext may be empty (an empty GCM plaintext).
  const [encryptedKey, iv, ciphertext, tag] = rest.map((segment, index) => decodeSegment(segment, index === 2)) as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ];
  const content = CONTENT[enc as ContentEncryption];
  if (iv.length !== content.ivLength) throw new Error('wrong IV length');
  if (tag.length !== TAG_LENGTH) throw new Error('wrong tag length');
  return {
    alg: alg as KeyWrapAlgorithm,
    enc: enc as ContentEncryption,
    kid,
    aad: Buffer.from(encodedHeader, 'ascii'), // AAD = ASCII of the encoded protected header
    encryptedKey,
    iv,
    ciphertext,
    tag,
  };
}

/** Canonical base64url (as in the JWS), so a flip in a segment's unused bits is not the same JWE. */
function decodeSegment(segment: string, mayBeEmpty: boolean): Uint8Array {
  if (segment.length === 0 && !mayBeEmpty) throw new Error('empty JWE segment');
  const bytes = decodeCanonicalBase64url(segment);
  if (!bytes) throw new Error('JWE segment is not canonical base64url');
  return bytes;
}

function parseHeader(bytes: Uint8Array): Record<string, unknown> {
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new Error('protected header is not JSON');
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) {
    throw new Error('protected header is not a JSON object');
  }
  return header as Record<string, unknown>;
}

/**
 * The content layer alone: authenticates, then decrypts. Exported for known-answer tests
 * (RFC 7516 appendices); production code calls `decryptCheckoutJwe`. Throws plain errors.
 */
export function decryptJweContent(
  enc: ContentEncryption,
  cek: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
  aad: Uint8Array,
): Uint8Array {
  if (cek.length !== CONTENT[enc].cekLength || tag.length !== TAG_LENGTH) throw authenticationFailed();
  if (enc === 'A128CBC-HS256') return decryptCbcHs256(cek, iv, ciphertext, tag, aad);
  const decipher = createDecipheriv(enc === 'A128GCM' ? 'aes-128-gcm' : 'aes-256-gcm', cek, iv, {
    authTagLength: TAG_LENGTH,
  });
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  // `final` throws on a bad tag; nothing from `update` is returned before it succeeds.
  return runDecipher(decipher, ciphertext, authenticationFailed);
}

/** RFC 7518 §5.2.2.2: MAC over AAD ‖ IV ‖ ciphertext ‖ AL, checked before any decryption. */
function decryptCbcHs256(cek: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array, aad: Uint8Array) {
  const macKey = cek.subarray(0, 16);
  const encKey = cek.subarray(16, 32);
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length) * 8n); // AAD length in bits, 64-bit big-endian
  const mac = createHmac('sha256', macKey).update(aad).update(iv).update(ciphertext).update(al).digest();
  if (!timingSafeEqual(mac.subarray(0, TAG_LENGTH), tag)) throw authenticationFailed();
  // A padding error here is a sender bug, not an oracle: the MAC was checked first.
  return runDecipher(createDecipheriv('aes-128-cbc', encKey, iv), ciphertext, () => new Error('CBC padding invalid'));
}

/**
 * Returns the plaintext in a fresh, unpooled Uint8Array and wipes the intermediate Buffers
 * (small Buffers live in Node's shared pool, where card data should not linger), also when
 * `final` rejects the input.
 */
function runDecipher(decipher: Decipher, ciphertext: Uint8Array, onFailure: () => Error): Uint8Array {
  const head = decipher.update(ciphertext);
  let tail: Buffer;
  try {
    tail = decipher.final();
  } catch {
    head.fill(0);
    throw onFailure();
  }
  const out = new Uint8Array(head.length + tail.length);
  out.set(head, 0);
  out.set(tail, head.length);
  head.fill(0);
  tail.fill(0);
  return out;
}

const authenticationFailed = () => new Error('JWE authentication failed');
