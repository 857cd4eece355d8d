/**
 * A secret named by ARN (SPEC 4.7 "credentials referenced, never stored"): a Secrets Manager
 * secret or an SSM SecureString parameter, read by the service's one secret source
 * (lib/adapters/secrets/secret-source.ts, loaded on first use). Either may hold the value itself
 * or a JSON object; `secretField` picks one string member of such an object. Errors name neither
 * the value nor the ARN.
 */
export const SECRETS_MANAGER_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/;
export const SSM_PARAMETER_ARN = /^arn:aws[a-z-]*:ssm:[a-z0-9-]+:\d{12}:parameter\/[A-Za-z0-9/_.-]+$/;

export class SecretUnavailableError extends Error {
  override readonly name: string = 'SecretUnavailableError';
}

/** `{"apiKey":"…"}` → the apiKey; a plain string is taken as it is. */
export function secretField(raw: string, field: string): string {
  const text = raw.trim();
  if (!text) throw new SecretUnavailableError('the secret has no string value');
  if (!text.startsWith('{')) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SecretUnavailableError('the secret is neither a plain value nor JSON');
  }
  const value = (parsed as Record<string, unknown>)[field];
  if (typeof value !== 'string' || !value) throw new SecretUnavailableError(`the secret's JSON has no string "${field}"`);
  return value;
}
