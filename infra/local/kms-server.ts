// Local AWS KMS emulator speaking the awsJson1_1 protocol (X-Amz-Target: TrentService.<Op>),
// so production code using @aws-sdk/client-kms works unchanged with `endpoint` pointed here.
// It also answers Secrets Manager's and SSM's secret reads and writes (secrets-emulator.ts).
// Scope: ENCRYPT_DECRYPT keys — RSA (OAEP SHA-1/SHA-256) and SYMMETRIC_DEFAULT (with
// EncryptionContext, see kms-symmetric.ts) — aliases and key lifecycle states.
// SigV4 signatures are not verified; only the presence of an Authorization header is.
import { constants, createPublicKey, privateDecrypt, publicEncrypt, randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  KmsError,
  KmsStore,
  RSA_KEY_SPECS,
  SYMMETRIC_KEY_SPEC,
  type KeyRecord,
  type KeySpec,
  type RsaKeyRecord,
  type SymmetricKeyRecord,
  type Tag,
} from './kms-store.js';
import { SecretsEmulator } from './secrets-emulator.js';
import { MAX_SYMMETRIC_PLAINTEXT, openSymmetric, parseEncryptionContext, parseSymmetricBlob, sealSymmetric, type SymmetricBlob } from './kms-symmetric.js';

export interface KmsServerOptions {
  port?: number;
  host?: string;
  /** JSON persistence path; omit for in-memory. */
  dataFile?: string;
  /** JSON persistence path of the Secrets Manager / SSM emulator's secrets; omit for in-memory. */
  secretsFile?: string;
  region?: string;
  accountId?: string;
}

export interface RunningKmsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const CONTENT_TYPE = 'application/x-amz-json-1.1';
const TARGET_PREFIX = 'TrentService.';
const MAX_BODY_BYTES = 1 << 20;
const OAEP_HASHES: Record<string, 'sha1' | 'sha256'> = { RSAES_OAEP_SHA_1: 'sha1', RSAES_OAEP_SHA_256: 'sha256' };
// Every algorithm name in the KMS model: these are valid input, merely unusable with an RSA key.
const KNOWN_ALGORITHMS = ['SYMMETRIC_DEFAULT', 'SM2PKE', 'RSA_AES_KEY_WRAP_SHA_1', 'RSA_AES_KEY_WRAP_SHA_256', ...Object.keys(OAEP_HASHES)];

type Input = Record<string, unknown>;
type Handler = (store: KmsStore, input: Input) => object | Promise<object>;

const invalid = (message: string): KmsError => new KmsError('ValidationException', message);

// Wording follows the real service ("1 validation error detected: ... at 'keyId' ...").
function optString(input: Input, name: string): string | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`Value at '${lowerFirst(name)}' must be a string`);
  return value;
}

function reqString(input: Input, name: string): string {
  const value = optString(input, name);
  if (!value) throw invalid(`1 validation error detected: Value null at '${lowerFirst(name)}' failed to satisfy constraint: Member must not be null`);
  return value;
}

/** Blob members travel as base64 strings in the JSON protocols. */
function reqBlob(input: Input, name: string): Buffer {
  const value = reqString(input, name);
  if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw invalid(`Value at '${lowerFirst(name)}' is not valid base64`);
  return Buffer.from(value, 'base64');
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function parseTags(value: unknown): Tag[] {
  if (value === undefined || value === null) return [];
  const ok = Array.isArray(value) && value.every((t: Input) => typeof t?.TagKey === 'string' && typeof t?.TagValue === 'string');
  if (!ok) throw invalid('Tags must be a list of {TagKey, TagValue} strings');
  return (value as Tag[]).map(({ TagKey, TagValue }) => ({ TagKey, TagValue }));
}

/** EncryptionAlgorithm, which KMS defaults to SYMMETRIC_DEFAULT; unknown names are a ValidationException. */
function encryptionAlgorithm(input: Input): string {
  const algorithm = optString(input, 'EncryptionAlgorithm') ?? 'SYMMETRIC_DEFAULT';
  if (!KNOWN_ALGORITHMS.includes(algorithm)) throw invalid(`Value '${algorithm}' at 'encryptionAlgorithm' failed to satisfy enum constraint`);
  return algorithm;
}

/** Maps EncryptionAlgorithm to an OAEP hash; KMS defaults it to SYMMETRIC_DEFAULT, which RSA keys reject. */
function oaepHash(store: KmsStore, key: RsaKeyRecord, input: Input): { algorithm: string; hash: 'sha1' | 'sha256' } {
  const algorithm = encryptionAlgorithm(input);
  const hash = OAEP_HASHES[algorithm];
  if (!hash) throw new KmsError('InvalidKeyUsageException', `${algorithm} is not a supported encryption algorithm for key ${store.keyArn(key.id)}`);
  return { algorithm, hash };
}

function keyMetadata(store: KmsStore, key: KeyRecord): object {
  return {
    AWSAccountId: store.accountId,
    KeyId: key.id,
    Arn: store.keyArn(key.id),
    CreationDate: key.creationDate,
    Enabled: key.state === 'Enabled',
    Description: key.description,
    KeyUsage: 'ENCRYPT_DECRYPT',
    KeyState: key.state,
    DeletionDate: key.deletionDate,
    PendingDeletionWindowInDays: key.pendingWindowInDays,
    Origin: 'AWS_KMS',
    KeyManager: 'CUSTOMER',
    CustomerMasterKeySpec: key.spec,
    KeySpec: key.spec,
    EncryptionAlgorithms: key.spec === SYMMETRIC_KEY_SPEC ? [SYMMETRIC_KEY_SPEC] : Object.keys(OAEP_HASHES),
    MultiRegion: false,
  };
}

// One handler per X-Amz-Target operation. Input/output member names are the KMS model's.
const operations: Record<string, Handler> = {
  async CreateKey(store, input) {
    const spec = optString(input, 'KeySpec') ?? optString(input, 'CustomerMasterKeySpec') ?? SYMMETRIC_KEY_SPEC;
    if (spec !== SYMMETRIC_KEY_SPEC && !Object.hasOwn(RSA_KEY_SPECS, spec)) {
      throw new KmsError(
        'UnsupportedOperationException',
        `KeySpec ${spec} is not supported by the local KMS emulator (SYMMETRIC_DEFAULT|RSA_2048|RSA_3072|RSA_4096 only)`,
      );
    }
    // Like real KMS, KeyUsage defaults to ENCRYPT_DECRYPT; signing keys are out of scope here.
    const usage = optString(input, 'KeyUsage') ?? 'ENCRYPT_DECRYPT';
    if (usage !== 'ENCRYPT_DECRYPT') throw new KmsError('UnsupportedOperationException', `KeyUsage ${usage} is not supported by the local KMS emulator`);
    if ((optString(input, 'Origin') ?? 'AWS_KMS') !== 'AWS_KMS' || input.MultiRegion === true) {
      throw new KmsError('UnsupportedOperationException', 'Only single-region AWS_KMS-origin keys are supported by the local KMS emulator');
    }
    const key = await store.createKey(spec as KeySpec, optString(input, 'Description') ?? '', parseTags(input.Tags));
    return { KeyMetadata: keyMetadata(store, key) };
  },
  DescribeKey: (store, input) => ({ KeyMetadata: keyMetadata(store, store.findKey(reqString(input, 'KeyId'))) }),
  GetPublicKey(store, input) {
    const key = store.usableKey(reqString(input, 'KeyId'));
    if (key.spec === SYMMETRIC_KEY_SPEC) {
      throw new KmsError('UnsupportedOperationException', `${store.keyArn(key.id)} is a symmetric encryption KMS key: it has no public key`);
    }
    const der = createPublicKey(key.privateKey).export({ type: 'spki', format: 'der' });
    const { KeySpec, KeyUsage, EncryptionAlgorithms } = keyMetadata(store, key) as Input;
    return { KeyId: store.keyArn(key.id), PublicKey: der.toString('base64'), CustomerMasterKeySpec: KeySpec, KeySpec, KeyUsage, EncryptionAlgorithms };
  },
  Encrypt(store, input) {
    const key = store.usableKey(reqString(input, 'KeyId'));
    const plaintext = reqBlob(input, 'Plaintext');
    if (key.spec === SYMMETRIC_KEY_SPEC) return encryptSymmetric(store, key, plaintext, input);
    const { algorithm, hash } = oaepHash(store, key, input);
    let ciphertext: Buffer;
    try {
      ciphertext = publicEncrypt({ key: key.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: hash }, plaintext);
    } catch {
      throw invalid(`Plaintext is too long for ${key.spec} with ${algorithm}`);
    }
    return { CiphertextBlob: ciphertext.toString('base64'), KeyId: store.keyArn(key.id), EncryptionAlgorithm: algorithm };
  },
  Decrypt(store, input) {
    const ciphertext = reqBlob(input, 'CiphertextBlob');
    // A symmetric blob names its key, so KeyId is optional for it, as in real KMS.
    const blob = parseSymmetricBlob(ciphertext);
    const named = blob && store.keyById(blob.keyId);
    if (blob && named?.spec === SYMMETRIC_KEY_SPEC) return decryptSymmetric(store, named, blob, input);
    // RSA ciphertexts carry no key reference: without a KeyId nothing can decrypt them.
    const keyId = optString(input, 'KeyId');
    if (keyId === undefined) throw new KmsError('InvalidCiphertextException', 'The ciphertext does not name a KMS key; asymmetric ciphertexts need a KeyId');
    const key = store.usableKey(keyId);
    if (key.spec === SYMMETRIC_KEY_SPEC) throw new KmsError('InvalidCiphertextException', 'The ciphertext is corrupted, missing, or otherwise invalid');
    const { algorithm, hash } = oaepHash(store, key, input);
    let plaintext: Buffer;
    try {
      plaintext = privateDecrypt({ key: key.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: hash }, ciphertext);
    } catch {
      // Wrong key, wrong OAEP hash and corrupted bytes are indistinguishable, and real KMS
      // reports all of them for asymmetric keys as InvalidCiphertextException.
      throw new KmsError('InvalidCiphertextException', 'The ciphertext could not be decrypted with the specified key and algorithm');
    }
    return { Plaintext: plaintext.toString('base64'), KeyId: store.keyArn(key.id), EncryptionAlgorithm: algorithm };
  },
  CreateAlias: (store, input) => {
    store.putAlias(reqString(input, 'AliasName'), reqString(input, 'TargetKeyId'), 'create');
    return {};
  },
  UpdateAlias: (store, input) => {
    store.putAlias(reqString(input, 'AliasName'), reqString(input, 'TargetKeyId'), 'update');
    return {};
  },
  DeleteAlias: (store, input) => {
    store.deleteAlias(reqString(input, 'AliasName'));
    return {};
  },
  ListAliases(store, input) {
    const keyId = optString(input, 'KeyId');
    const aliases = store.listAliases(keyId === undefined ? undefined : store.findKey(keyId).id).map((a) => ({
      AliasName: a.name,
      AliasArn: store.aliasArn(a.name),
      TargetKeyId: a.targetKeyId,
      CreationDate: a.creationDate,
      LastUpdatedDate: a.lastUpdatedDate,
    }));
    return { Aliases: aliases, Truncated: false }; // no pagination: a dev emulator holds a handful of keys
  },
  ListKeys: (store) => ({ Keys: store.listKeys().map((k) => ({ KeyId: k.id, KeyArn: store.keyArn(k.id) })), Truncated: false }),
  DisableKey: (store, input) => setEnabled(store, input, 'Disabled'),
  EnableKey: (store, input) => setEnabled(store, input, 'Enabled'),
  ScheduleKeyDeletion(store, input) {
    const key = store.findKey(reqString(input, 'KeyId'));
    store.assertNotPendingDeletion(key);
    const days = input.PendingWindowInDays ?? 30;
    if (!Number.isInteger(days) || (days as number) < 7 || (days as number) > 30) throw invalid('PendingWindowInDays must be an integer between 7 and 30');
    // Deletion is only recorded, never executed: the emulator keeps the key until CancelKeyDeletion.
    const deletionDate = Math.floor(Date.now() / 1000) + (days as number) * 86_400;
    store.updateKey(key, { state: 'PendingDeletion', deletionDate, pendingWindowInDays: days as number });
    return { KeyId: store.keyArn(key.id), DeletionDate: deletionDate, KeyState: 'PendingDeletion', PendingWindowInDays: days };
  },
  CancelKeyDeletion(store, input) {
    const key = store.findKey(reqString(input, 'KeyId'));
    if (key.state !== 'PendingDeletion') throw new KmsError('KMSInvalidStateException', `${store.keyArn(key.id)} is not pending deletion.`);
    store.updateKey(key, { state: 'Disabled' }); // real KMS also leaves a cancelled key disabled
    return { KeyId: store.keyArn(key.id) };
  },
};

function encryptSymmetric(store: KmsStore, key: SymmetricKeyRecord, plaintext: Buffer, input: Input): object {
  const algorithm = encryptionAlgorithm(input);
  if (algorithm !== SYMMETRIC_KEY_SPEC) {
    throw new KmsError('InvalidKeyUsageException', `${algorithm} is not a supported encryption algorithm for key ${store.keyArn(key.id)}`);
  }
  if (plaintext.length > MAX_SYMMETRIC_PLAINTEXT) {
    throw invalid(
      `1 validation error detected: Value at 'plaintext' failed to satisfy constraint: Member must have length less than or equal to ${MAX_SYMMETRIC_PLAINTEXT}`,
    );
  }
  const blob = sealSymmetric(key.id, key.secretKey, plaintext, parseEncryptionContext(input.EncryptionContext));
  return { CiphertextBlob: blob.toString('base64'), KeyId: store.keyArn(key.id), EncryptionAlgorithm: algorithm };
}

/**
 * KMS's order: a KeyId that names another key than the blob's is IncorrectKeyException, the
 * blob's key must be usable, the algorithm SYMMETRIC_DEFAULT, and the context must match.
 */
function decryptSymmetric(store: KmsStore, named: SymmetricKeyRecord, blob: SymmetricBlob, input: Input): object {
  const keyId = optString(input, 'KeyId');
  if (keyId !== undefined && store.findKey(keyId).id !== named.id) {
    throw new KmsError('IncorrectKeyException', 'The key ID in the request does not identify the KMS key that can decrypt the ciphertext.');
  }
  const key = store.usableKey(named.id);
  const algorithm = encryptionAlgorithm(input);
  if (algorithm !== SYMMETRIC_KEY_SPEC) {
    throw new KmsError('InvalidKeyUsageException', `${algorithm} is not a supported encryption algorithm for key ${store.keyArn(key.id)}`);
  }
  const plaintext = openSymmetric(named.secretKey, blob, parseEncryptionContext(input.EncryptionContext));
  return { Plaintext: plaintext.toString('base64'), KeyId: store.keyArn(key.id), EncryptionAlgorithm: algorithm };
}

function setEnabled(store: KmsStore, input: Input, state: 'Enabled' | 'Disabled'): object {
  const key = store.findKey(reqString(input, 'KeyId'));
  store.assertNotPendingDeletion(key);
  store.updateKey(key, { state });
  return {};
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw invalid('Request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs one request through auth, routing, JSON parsing and its handler; every failure is a KmsError. */
async function dispatch(store: KmsStore, secrets: SecretsEmulator, req: IncomingMessage): Promise<object> {
  const body = await readBody(req);
  if (!req.headers.authorization)
    throw new KmsError('UnrecognizedClientException', 'Request is missing an Authorization header (any SigV4 signature is accepted)');
  const target = req.headers['x-amz-target'];
  const op = req.method === 'POST' && typeof target === 'string' && target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : undefined;
  const secretHandler = req.method === 'POST' && typeof target === 'string' ? secrets.handler(target) : undefined;
  const handler: Handler | undefined = secretHandler
    ? (_store, input) => secretHandler(input)
    : op !== undefined && Object.hasOwn(operations, op)
      ? operations[op]
      : undefined;
  if (!handler) throw new KmsError('UnknownOperationException', `Unknown operation ${String(target)}`);
  let input: unknown;
  try {
    input = JSON.parse(body || '{}');
  } catch {
    throw invalid('Request body is not valid JSON');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid('Request body must be a JSON object');
  return handler(store, input as Input);
}

export async function startKmsServer(opts: KmsServerOptions = {}): Promise<RunningKmsServer> {
  const host = opts.host ?? '127.0.0.1';
  const store = new KmsStore(opts.region ?? 'us-east-1', opts.accountId ?? '000000000000', opts.dataFile);
  // Secrets Manager and SSM, for the secrets the service reads by ARN (processor credentials).
  const secrets = new SecretsEmulator(opts.region ?? 'us-east-1', opts.accountId ?? '000000000000', opts.secretsFile);
  const server = createServer((req, res) => {
    dispatch(store, secrets, req).then(
      (output) => send(200, output),
      (err: unknown) => {
        const error = err instanceof KmsError ? err : new KmsError('KMSInternalException', String(err), 500);
        // The SDK takes the error code from __type (then x-amzn-errortype) and uses it as the error's name.
        send(error.status, { __type: error.type, message: error.message }, { 'x-amzn-errortype': error.type });
      },
    );
    function send(status: number, payload: object, headers: Record<string, string> = {}): void {
      res.writeHead(status, { 'content-type': CONTENT_TYPE, 'x-amzn-requestid': randomUUID(), ...headers });
      res.end(JSON.stringify(payload));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections(); // the SDK keeps sockets alive; without this close() would hang
      }),
  };
}

function isMain(): boolean {
  try {
    return !!process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

// CLI: tsx infra/local/kms-server.ts --port 4599 --data .data/kms.json --secrets .data/secrets.json
if (isMain()) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      secrets: { type: 'string' },
      region: { type: 'string' },
      account: { type: 'string' },
    },
  });
  const server = await startKmsServer({
    port: values.port === undefined ? undefined : Number(values.port),
    host: values.host,
    dataFile: values.data,
    secretsFile: values.secrets,
    region: values.region,
    accountId: values.account,
  });
  console.log(JSON.stringify({ kms: server.url }));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void server.close().finally(() => process.exit(0)));
  }
}
