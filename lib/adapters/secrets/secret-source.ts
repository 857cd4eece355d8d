import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SSMClient } from '@aws-sdk/client-ssm';
import { DependencyUnavailableError, InternalError } from '../../core/errors.js';
import { recordDependencyFailure } from '../metrics/dependency-failures.js';
import { MAX_SECRET_TTL_MS } from './secret-ttl.js';

/** Reads a secret's value by ARN. The value is never logged, never put in an error, never stored. */
export interface SecretSource {
  read(arn: string): Promise<string>;
}

const SECRETS_MANAGER_ARN = /^arn:aws[a-z-]*:secretsmanager:/;
const SSM_PARAMETER_ARN = /^arn:aws[a-z-]*:ssm:/;
/** Our own mistakes (a wrong ARN, no permission, no such secret): a 500 for operators, never a retry hint. */
const MISCONFIGURATION = new Set([
  'AccessDeniedException',
  'ResourceNotFoundException',
  'ParameterNotFound',
  'ValidationException',
  'InvalidParameterException',
]);

/**
 * Secrets referenced by ARN (SPEC 4.7: processor credentials, notification keys): a Secrets
 * Manager secret's SecretString, or an SSM parameter decrypted (SecureString). The clients come
 * with the service's deadlines (lib/adapters/aws/clients.ts: connect 1 s, request 2 s, the call
 * within its budget and the invocation's deadline), so an unreachable store is a 503, not a hang.
 *
 * Each store's client is made, and its SDK package imported, at the first read from that store:
 * a function loads neither at its cold start, and a deployment whose secrets all live in one
 * store never loads the other's (the SSM client alone is ~200 KiB; docs/benchmarks.md
 * "Cold start"). A client that could not be made is tried again by the next read.
 */
export interface SecretStoreClients {
  secretsManager: () => Promise<Pick<SecretsManagerClient, 'send'>>;
  ssm: () => Promise<Pick<SSMClient, 'send'>>;
}

export class AwsSecretSource implements SecretSource {
  private readonly secretsManager: SecretStoreClients['secretsManager'];
  private readonly ssm: SecretStoreClients['ssm'];

  constructor(clients: SecretStoreClients) {
    this.secretsManager = madeOnFirstUse(clients.secretsManager);
    this.ssm = madeOnFirstUse(clients.ssm);
  }

  async read(arn: string): Promise<string> {
    try {
      if (SECRETS_MANAGER_ARN.test(arn)) {
        const [{ GetSecretValueCommand }, client] = await Promise.all([import('./secrets-manager-sdk.js'), this.secretsManager()]);
        const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
        if (typeof SecretString !== 'string') throw new InternalError(undefined, { cause: new Error('the secret has no string value') });
        return SecretString;
      }
      if (SSM_PARAMETER_ARN.test(arn)) {
        const [{ GetParameterCommand }, client] = await Promise.all([import('./ssm-sdk.js'), this.ssm()]);
        const { Parameter } = await client.send(new GetParameterCommand({ Name: arn, WithDecryption: true }));
        if (typeof Parameter?.Value !== 'string') throw new InternalError(undefined, { cause: new Error('the parameter has no value') });
        return Parameter.Value;
      }
      throw new InternalError(undefined, { cause: new Error('not a Secrets Manager or SSM parameter ARN') });
    } catch (error) {
      if (error instanceof InternalError) throw error;
      throw failure(error, SECRETS_MANAGER_ARN.test(arn) ? 'secretsmanager' : 'ssm');
    }
  }
}

/** The client `make` resolves to, made once; a failed attempt is forgotten, so the next read tries again. */
function madeOnFirstUse<C>(make: () => Promise<C>): () => Promise<C> {
  let made: Promise<C> | undefined;
  return () => {
    if (made) return made;
    const attempt = make();
    made = attempt;
    attempt.catch(() => {
      if (made === attempt) made = undefined;
    });
    return attempt;
  };
}

/** The SDK's error, with only its name kept (its message may quote the request). */
function failure(error: unknown, dependency: 'secretsmanager' | 'ssm'): InternalError | DependencyUnavailableError {
  const name = (error as { name?: string } | undefined)?.name ?? 'Error';
  const cause = new Error(`${dependency} ${name}`);
  if (MISCONFIGURATION.has(name)) return new InternalError(undefined, { cause });
  recordDependencyFailure(dependency, error);
  return new DependencyUnavailableError(undefined, { cause });
}

export { MAX_SECRET_TTL_MS };

/**
 * Keeps secrets read by ARN for a few minutes in a warm function: a burst of payments costs one
 * read per secret, and a rotated secret is picked up within the TTL. Concurrent reads of one ARN
 * share a call; failures are not cached; values are never logged.
 */
export class CachingSecretSource implements SecretSource {
  private readonly entries = new Map<string, { value: Promise<string>; expiresAt: number }>();

  constructor(
    private readonly inner: SecretSource,
    private readonly options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {}

  read(arn: string): Promise<string> {
    const now = (this.options.now ?? Date.now)();
    const hit = this.entries.get(arn);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = this.inner.read(arn);
    const ttl = Math.min(this.options.ttlMs ?? MAX_SECRET_TTL_MS, MAX_SECRET_TTL_MS);
    if (this.entries.size >= (this.options.maxEntries ?? 1000)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(arn, { value, expiresAt: now + ttl });
    value.catch(() => {
      if (this.entries.get(arn)?.value === value) this.entries.delete(arn);
    });
    return value;
  }
}
