// SYMMETRIC_DEFAULT encryption of the local KMS emulator: AES-256-GCM under the key's own
// material, the encryption context bound as additional authenticated data. Like a real KMS
// ciphertext blob, ours names its key, so Decrypt needs no KeyId; it is opaque to callers
// and only this emulator can read it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { KmsError } from './kms-store.js';

/** "LKMS" + format version 1: tells our blobs apart from RSA ciphertexts and garbage. */
const MAGIC = Buffer.from([0x4c, 0x4b, 0x4d, 0x53, 0x01]);
const KEY_ID_BYTES = 36; // a UUID, as KmsStore creates them
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + KEY_ID_BYTES;
/** Encrypt accepts 1 to 4,096 bytes of plaintext (KMS API reference). */
export const MAX_SYMMETRIC_PLAINTEXT = 4096;

export type EncryptionContext = Record<string, string>;

/**
 * The EncryptionContext member: a map of strings, or absent. An empty map is the same as
 * none, as in KMS. Validation failures are the protocol's ValidationException.
 */
export function parseEncryptionContext(value: unknown): EncryptionContext {
  if (value === undefined || value === null) return {};
  const ok = typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
  if (!ok) throw new KmsError('ValidationException', "Value at 'encryptionContext' must be a map of strings");
  return value as EncryptionContext;
}

/** Order-independent bytes of a context: {a,b} and {b,a} authenticate the same. */
function canonical(context: EncryptionContext): Buffer {
  const entries = Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.from(JSON.stringify(entries), 'utf8');
}

/** The header (which names the key) is authenticated too, so a blob cannot be re-pointed. */
function aad(header: Buffer, context: EncryptionContext): Buffer {
  return Buffer.concat([header, canonical(context)]);
}

export function sealSymmetric(keyId: string, secretKey: Buffer, plaintext: Buffer, context: EncryptionContext): Buffer {
  const header = Buffer.concat([MAGIC, Buffer.from(keyId, 'ascii')]);
  if (header.length !== HEADER_BYTES) throw new Error(`unexpected key id length: ${keyId}`);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secretKey, iv);
  cipher.setAAD(aad(header, context));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([header, iv, cipher.getAuthTag(), ciphertext]);
}

export interface SymmetricBlob {
  keyId: string;
  header: Buffer;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

/** The parts of one of our blobs, or undefined for anything else (e.g. an RSA ciphertext). */
export function parseSymmetricBlob(blob: Buffer): SymmetricBlob | undefined {
  if (blob.length <= HEADER_BYTES + IV_BYTES + TAG_BYTES || !blob.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const header = blob.subarray(0, HEADER_BYTES);
  const ivEnd = HEADER_BYTES + IV_BYTES;
  return {
    keyId: header.subarray(MAGIC.length).toString('ascii'),
    header,
    iv: blob.subarray(HEADER_BYTES, ivEnd),
    tag: blob.subarray(ivEnd, ivEnd + TAG_BYTES),
    ciphertext: blob.subarray(ivEnd + TAG_BYTES),
  };
}

/** A wrong context, a flipped bit or a foreign key all fail the GCM tag: InvalidCiphertextException. */
export function openSymmetric(secretKey: Buffer, blob: SymmetricBlob, context: EncryptionContext): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', secretKey, blob.iv);
    decipher.setAAD(aad(blob.header, context));
    decipher.setAuthTag(blob.tag);
    return Buffer.concat([decipher.update(blob.ciphertext), decipher.final()]);
  } catch {
    throw new KmsError('InvalidCiphertextException', 'The ciphertext, or its encryption context, is corrupted, missing, or otherwise invalid');
  }
}
