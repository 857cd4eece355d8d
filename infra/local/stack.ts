import { createRequire } from 'node:module';
import { mkdir, rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { CreateAliasCommand, CreateKeyCommand, DescribeKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import {
  dynaliteSpec,
  dynamoDbLocalSpec,
  kmsSpec,
  startWatchdog,
  supervise,
  type DynamoEngine,
  type LocalProcessInfo,
  type SupervisedProcess,
} from './local-processes.js';
import { ensureDevIdentity, type DevIdentity } from './dev-identity.js';
import { ensureSandboxNetwork, SANDBOX_NETWORK, type SandboxNetwork } from './sandbox-network.js';

interface TableDefinition {
  envVar: string;
  baseName: string;
}
const { tables, createTableInput } = createRequire(import.meta.url)('../tables.cjs') as {
  tables: TableDefinition[];
  createTableInput: (definition: TableDefinition, name: string) => CreateTableCommandInput;
};

export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'us-east-1';
export const PAYLOAD_KEY_ALIAS = 'alias/click-to-pay-local-payload-current';
/** Symmetric key that seals the merchants' webhook signing secrets (SPEC 4.15). */
export const WEBHOOK_SECRETS_KEY_ALIAS = 'alias/click-to-pay-local-webhook-secrets';

export interface LocalStackOptions {
  /** Persist DynamoDB and KMS data here (npm start); omit for in-memory (tests). */
  dataDir: string;
  persist: boolean;
  dynamoPort?: number;
  kmsPort?: number;
  tablePrefix?: string;
  /** dynalite (default) or AWS's DynamoDB Local (needs Java). */
  dynamoEngine?: DynamoEngine;
  /** Start a dependency again on its port when it dies (npm start). */
  restart?: boolean;
  /** Told when a dependency was started again (its pid changed). */
  onRestart?: (info: LocalProcessInfo) => void;
  log?: (line: string) => void;
}

export interface LocalStack {
  env: Record<string, string>;
  identity: DevIdentity;
  sandbox: SandboxNetwork;
  dynamoEndpoint: string;
  kmsEndpoint: string;
  /** The processes behind the two endpoints, as they are now (pids change on a restart). */
  processes(): { dynamodb: LocalProcessInfo; kms: LocalProcessInfo };
  /** Also kill this pid (SIGKILL) if the process that started the stack dies; forget it once it has exited. */
  guard(pid: number): { forget(): void };
  /** Shutting down: a dependency that exits now (Ctrl-C signals the whole process group) stays down. */
  stopRestarting(): void;
  close(): Promise<void>;
}

/**
 * The real local parts (SPEC §7): dynalite speaking the DynamoDB protocol, the KMS server
 * speaking the KMS protocol, the dev identity provider and the sandbox network keys.
 * Idempotent: a second start finds tables, keys and aliases and reuses them.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  await mkdir(options.dataDir, { recursive: true });
  const engine = options.dynamoEngine ?? 'dynalite';
  const watchdog = startWatchdog();
  const common = { restart: options.restart ?? false, watchdog, onRestart: options.onRestart, log: options.log };
  const started: SupervisedProcess[] = [];
  const closeAll = async () => {
    await Promise.allSettled(started.map((p) => p.stop()));
    watchdog.close();
  };
  let dynamo: SupervisedProcess;
  let kms: SupervisedProcess;
  try {
    const dynamoSpec =
      engine === 'dynamodb-local'
        ? dynamoDbLocalSpec(
            options.persist ? await made(`${options.dataDir}/dynamodb-local`) : undefined,
            await emptied(`${options.dataDir}/dynamodb-local-tmp`),
          )
        : dynaliteSpec(options.persist ? `${options.dataDir}/dynamodb` : undefined);
    // Both start at once: DynamoDB Local's JVM takes a few seconds.
    const [d, k] = await Promise.allSettled([
      supervise(dynamoSpec, { ...common, port: options.dynamoPort }),
      supervise(kmsSpec(options.persist ? options.dataDir : undefined), { ...common, port: options.kmsPort }),
    ]);
    for (const r of [d, k]) if (r.status === 'fulfilled') started.push(r.value);
    if (d.status === 'rejected') throw d.reason;
    if (k.status === 'rejected') throw k.reason;
    [dynamo, kms] = [d.value, k.value];
  } catch (error) {
    await closeAll();
    throw error;
  }
  const kmsUrl = kms.info().endpoint;
  const dynamoEndpoint = dynamo.info().endpoint;
  const prefix = options.tablePrefix ?? 'click-to-pay-local';
  let tableEnv: Record<string, string>;
  try {
    tableEnv = await ensureTables(dynamoEndpoint, prefix);
    await ensureKey(kmsUrl, PAYLOAD_KEY_ALIAS, 'RSA_2048', 'Click to Pay payload key (local)');
    await ensureKey(kmsUrl, WEBHOOK_SECRETS_KEY_ALIAS, 'SYMMETRIC_DEFAULT', 'Click to Pay webhook signing secrets (local)');
  } catch (error) {
    await closeAll();
    throw error;
  }
  const payloadKeyIds = process.env.PAYLOAD_KEY_IDS ?? PAYLOAD_KEY_ALIAS;
  const identity = await ensureDevIdentity(options.dataDir);
  const sandbox = await ensureSandboxNetwork(options.dataDir);
  const networks = [process.env.NETWORK_JWKS_URLS, `${SANDBOX_NETWORK}=${sandbox.jwksUrl}`].filter(Boolean).join(',');

  const env: Record<string, string> = {
    ...tableEnv,
    DYNAMODB_ENDPOINT: dynamoEndpoint,
    KMS_ENDPOINT: kmsUrl,
    // The local KMS server also answers Secrets Manager and SSM (infra/local/secrets-emulator.ts).
    SECRETS_MANAGER_ENDPOINT: kmsUrl,
    SSM_ENDPOINT: kmsUrl,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AUTH_ISSUER: process.env.AUTH_ISSUER ?? identity.issuer,
    AUTH_AUDIENCE: process.env.AUTH_AUDIENCE ?? identity.audience,
    AUTH_JWKS_URL: process.env.AUTH_JWKS_URL ?? identity.jwksUrl,
    NETWORK_JWKS_URLS: networks,
    // The sandbox SRC signs with the private half of the `sandbox` network keys trusted above.
    SANDBOX_NETWORK_SIGNING_JWKS_URL: process.env.SANDBOX_NETWORK_SIGNING_JWKS_URL || pathToFileURL(sandbox.privatePath).href,
    PAYLOAD_KEY_IDS: payloadKeyIds,
    ...(process.env.PAYLOAD_KEY_NETWORK_KIDS ? { PAYLOAD_KEY_NETWORK_KIDS: process.env.PAYLOAD_KEY_NETWORK_KIDS } : {}),
    // Locally a sandbox merchant's loopback webhook is the developer's own machine (docs/integrating/webhooks.md).
    WEBHOOK_LOOPBACK_DELIVERY: 'allowed',
    WEBHOOK_SECRETS_KEY_ID: process.env.WEBHOOK_SECRETS_KEY_ID || WEBHOOK_SECRETS_KEY_ALIAS,
    ...(process.env.CHECKOUT_MAX_AGE_SECONDS ? { CHECKOUT_MAX_AGE_SECONDS: process.env.CHECKOUT_MAX_AGE_SECONDS } : {}),
  };
  return {
    env,
    identity,
    sandbox,
    dynamoEndpoint,
    kmsEndpoint: kmsUrl,
    processes: () => ({ dynamodb: dynamo.info(), kms: kms.info() }),
    guard: (pid) => {
      watchdog.watch(pid);
      return { forget: () => watchdog.forget(pid) };
    },
    stopRestarting: () => {
      for (const supervised of started) supervised.stopRestarting();
    },
    close: closeAll,
  };
}

/**
 * Every table of infra/tables.cjs, the sandbox's included (the local stage always serves the
 * sandbox, and the tests run with it): `{ CONFIG_TABLE: '<prefix>-config', …, SANDBOX_TABLE: '<prefix>-sandbox' }`.
 */
export async function ensureTables(endpoint: string, prefix: string): Promise<Record<string, string>> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const env: Record<string, string> = {};
  // The tables are independent: made side by side (every test file makes its own set).
  await Promise.all(
    tables.map(async (table) => {
      const TableName = `${prefix}-${table.baseName}`;
      env[table.envVar] = TableName;
      const wanted = createTableInput(table, TableName);
      try {
        const { Table } = await client.send(new DescribeTableCommand({ TableName }));
        await addMissingIndexes(client, wanted, Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName!) ?? []);
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
        await client.send(new CreateTableCommand(wanted));
      }
    }),
  ).finally(() => client.destroy());
  return env;
}

/** Data kept in .data/ from before an index existed: the index is added, nothing is lost. */
async function addMissingIndexes(client: DynamoDBClient, wanted: CreateTableCommandInput, existing: string[]): Promise<void> {
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (existing.includes(index.IndexName!)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: wanted.TableName,
        AttributeDefinitions: wanted.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
      }),
    );
  }
}

/** Creates the key behind `alias` unless the alias exists already (a restart reuses it). */
export async function ensureKey(endpoint: string, alias: string, keySpec: 'RSA_2048' | 'SYMMETRIC_DEFAULT', description: string): Promise<void> {
  const client = new KMSClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await client.send(new DescribeKeyCommand({ KeyId: alias }));
  } catch (error) {
    if ((error as Error).name !== 'NotFoundException') throw error;
    const { KeyMetadata } = await client.send(new CreateKeyCommand({ KeySpec: keySpec, KeyUsage: 'ENCRYPT_DECRYPT', Description: description }));
    await client.send(new CreateAliasCommand({ AliasName: alias, TargetKeyId: KeyMetadata!.KeyId! }));
  } finally {
    client.destroy();
  }
}

/** A directory that exists and holds nothing (what an earlier start left there goes). */
async function emptied(dir: string): Promise<string> {
  await rm(dir, { recursive: true, force: true });
  return made(dir);
}

async function made(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}
