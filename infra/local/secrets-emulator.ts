import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { KmsError } from './kms-store.js';

/**
 * Secrets Manager and SSM Parameter Store as far as the service and `npm start` use them, answered
 * by the local KMS server on the same awsJson1_1 protocol (X-Amz-Target `secretsmanager.<Op>`,
 * `AmazonSSM.<Op>`): the production clients read processor credentials and notification keys by
 * ARN from it (SECRETS_MANAGER_ENDPOINT, SSM_ENDPOINT). Kept in a file when given one (`npm start`:
 * `.data/secrets.json`, 0600, like the keys in kms.json), so a KMS server that died and was started
 * again still answers the ARNs the merchants were onboarded with; otherwise in memory. `npm start`
 * writes the fakes' secrets at each start (their keys are new each time), by name.
 */
type Input = Record<string, unknown>;

interface StoredSecret {
  arn: string;
  name: string;
  value: string;
  version: number;
}

interface PersistedSecrets {
  version: 1;
  secrets: StoredSecret[];
  parameters: StoredSecret[];
}

export class SecretsEmulator {
  private readonly secrets = new Map<string, StoredSecret>();
  private readonly parameters = new Map<string, StoredSecret>();

  constructor(
    private readonly region: string,
    private readonly accountId: string,
    private readonly dataFile?: string,
  ) {
    if (dataFile) this.load(dataFile);
  }

  /** The handler of one target, or undefined when the target is not Secrets Manager's or SSM's. */
  handler(target: string): ((input: Input) => object) | undefined {
    const operations: Record<string, (input: Input) => object> = {
      'secretsmanager.CreateSecret': (input) => this.createSecret(input),
      'secretsmanager.PutSecretValue': (input) => this.putSecretValue(input),
      'secretsmanager.GetSecretValue': (input) => this.getSecretValue(input),
      'AmazonSSM.PutParameter': (input) => this.putParameter(input),
      'AmazonSSM.GetParameter': (input) => this.getParameter(input),
    };
    return Object.hasOwn(operations, target) ? operations[target] : undefined;
  }

  private createSecret(input: Input): object {
    const name = text(input, 'Name');
    if (this.secretNamed(name)) throw new KmsError('ResourceExistsException', `The operation failed because the secret ${name} already exists.`);
    const secret = {
      arn: `arn:aws:secretsmanager:${this.region}:${this.accountId}:secret:${name}-${suffix()}`,
      name,
      value: text(input, 'SecretString'),
      version: 1,
    };
    this.secrets.set(secret.arn, secret);
    this.save();
    return { ARN: secret.arn, Name: name, VersionId: `v${secret.version}` };
  }

  private putSecretValue(input: Input): object {
    const secret = this.secret(text(input, 'SecretId'));
    secret.value = text(input, 'SecretString');
    secret.version += 1;
    this.save();
    return { ARN: secret.arn, Name: secret.name, VersionId: `v${secret.version}` };
  }

  private getSecretValue(input: Input): object {
    const secret = this.secret(text(input, 'SecretId'));
    return { ARN: secret.arn, Name: secret.name, SecretString: secret.value, VersionId: `v${secret.version}`, VersionStages: ['AWSCURRENT'] };
  }

  private putParameter(input: Input): object {
    const name = text(input, 'Name');
    const existing = this.parameter(name, false);
    if (existing && input.Overwrite !== true)
      throw new KmsError('ParameterAlreadyExists', 'The parameter already exists. To overwrite this value, set the overwrite option in the request to true.');
    const parameter = existing ?? { arn: `arn:aws:ssm:${this.region}:${this.accountId}:parameter/${name.replace(/^\//, '')}`, name, value: '', version: 0 };
    parameter.value = text(input, 'Value');
    parameter.version += 1;
    this.parameters.set(parameter.arn, parameter);
    this.save();
    return { Version: parameter.version, Tier: 'Standard' };
  }

  private getParameter(input: Input): object {
    const parameter = this.parameter(text(input, 'Name'), true)!;
    return { Parameter: { Name: parameter.name, Type: 'SecureString', Value: parameter.value, Version: parameter.version, ARN: parameter.arn } };
  }

  private secret(id: string): StoredSecret {
    const secret = this.secrets.get(id) ?? this.secretNamed(id);
    if (!secret) throw new KmsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    return secret;
  }

  private secretNamed(name: string): StoredSecret | undefined {
    return [...this.secrets.values()].find((secret) => secret.name === name);
  }

  private load(file: string): void {
    let raw: string;
    try {
      raw = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // first run: start empty
      throw error;
    }
    const state = JSON.parse(raw) as PersistedSecrets;
    if (state.version !== 1) throw new Error(`${file}: unsupported secrets data version ${String(state.version)}`);
    for (const secret of state.secrets) this.secrets.set(secret.arn, secret);
    for (const parameter of state.parameters) this.parameters.set(parameter.arn, parameter);
  }

  /** Synchronously, through a fresh 0600 file renamed over the old one (as kms-store.ts saves keys). */
  private save(): void {
    if (!this.dataFile) return;
    const state: PersistedSecrets = { version: 1, secrets: [...this.secrets.values()], parameters: [...this.parameters.values()] };
    mkdirSync(dirname(this.dataFile), { recursive: true });
    const tmp = `${this.dataFile}.${process.pid}.${randomUUID()}.tmp`;
    writeFileSync(tmp, JSON.stringify(state, null, 2), { mode: 0o600 });
    renameSync(tmp, this.dataFile);
  }

  private parameter(id: string, required: boolean): StoredSecret | undefined {
    const parameter = this.parameters.get(id) ?? [...this.parameters.values()].find((candidate) => candidate.name === id);
    if (!parameter && required) throw new KmsError('ParameterNotFound', '');
    return parameter;
  }
}

function text(input: Input, name: string): string {
  const value = input[name];
  if (typeof value !== 'string' || value === '')
    throw new KmsError('ValidationException', `1 validation error detected: Value null at '${name}' failed to satisfy constraint`);
  return value;
}

/** Secrets Manager appends six random characters to a secret's ARN. */
const suffix = () => randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 6);
