/**
 * Canonical base64url (RFC 7515 §2, RFC 4648 §5): the URL-safe alphabet only, no padding,
 * no whitespace, and no unused bits set in the last character. Node's decoder is lenient
 * about all four, so a segment is accepted only when decoding and re-encoding gives the
 * same text: then exactly one string encodes each byte sequence, and nobody can make a
 * byte-different copy of a signed or encrypted object that still verifies.
 */
const ALPHABET = /^[A-Za-z0-9_-]*$/;

/** The bytes of a canonical base64url segment, or undefined when it is not one. */
export function decodeCanonicalBase64url(segment: string): Uint8Array | undefined {
  if (!ALPHABET.test(segment)) return undefined;
  const bytes = Buffer.from(segment, 'base64url');
  return bytes.toString('base64url') === segment ? bytes : undefined;
}
