/**
 * EMV 3DS's base64url: sent without padding (changelog.rst 2020-11-11: "EMVCo has clarified that
 * Base64-URL encoding must not include padding"), read with or without it (3dsmethod.rst and
 * challenge_flow.rst: "must be able to receive both padded and unpadded").
 */
export function encodeJsonBase64Url(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The JSON object a base64url value (padded or not) holds; undefined for anything else. */
export function decodeJsonBase64Url(value: string, maxLength = 8192): Record<string, unknown> | undefined {
  if (value.length > maxLength || !/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value.replace(/=+$/, ''), 'base64url').toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
