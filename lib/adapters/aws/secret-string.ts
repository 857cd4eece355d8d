import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';

/**
 * A secret named by ARN (SPEC 4.7 "credentials referenced, never stored"): a Secrets Manager
 * secret (its SecretString) or an SSM SecureString parameter (decrypted). Either may hold the
 * value itself or a JSON object; `field` picks one string member of such an object. Read once
 * per warm function (`cachedSecret`); a failed read is not kept, so the next call reads again.
 * The clients are built with withDeadlines (lib/adapters/aws/clients.ts): every read has the
 * call budget and never outlives the invocation. Errors name neither the value nor the ARN.
 */
export const SECRETS_MANAGER_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/;
export const SSM_PARAMETER_ARN = /^arn:aws[a-z-]*:ssm:[a-z0-9-]+:\d{12}:parameter\/[A-Za-z0-9/_.-]+$/;

export interface SecretClients {
  secretsManager: () => Pick<SecretsManagerClient, 'send'>;
  ssm: () => Pick<SSMClient, 'send'>;
}

export class SecretUnavailableError extends Error {
  override readonly name: string = 'SecretUnavailableError';
}

export async function readSecretString(clients: SecretClients, arn: string, field?: string): Promise<string> {
  let raw: string | undefined;
  if (SECRETS_MANAGER_ARN.test(arn)) {
    const answer = await clients.secretsManager().send(new GetSecretValueCommand({ SecretId: arn }));
    raw = answer.SecretString;
  } else if (SSM_PARAMETER_ARN.test(arn)) {
    const answer = await clients.ssm().send(new GetParameterCommand({ Name: arn, WithDecryption: true }));
    raw = answer.Parameter?.Value;
  } else {
    throw new SecretUnavailableError('not a Secrets Manager secret ARN nor an SSM parameter ARN');
  }
  if (!raw) throw new SecretUnavailableError('the secret has no string value');
  return field ? fieldOf(raw, field) : raw.trim();
}

/** `{"apiKey":"…"}` → the apiKey; a plain string is taken as it is. */
function fieldOf(raw: string, field: string): string {
  const text = raw.trim();
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

/** Reads once, keeps the value in memory for the warm function; a failure is not kept. */
export function cachedSecret(read: () => Promise<string>): () => Promise<string> {
  let loaded: Promise<string> | undefined;
  return () => {
    loaded ??= read().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}
