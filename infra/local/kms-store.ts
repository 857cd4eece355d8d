// State of the local KMS emulator: RSA and symmetric keys, aliases, key-id resolution and
// optional JSON persistence. Protocol concerns (HTTP, JSON shapes) live in
// kms-server.ts; this module never hands a private key to a caller outside
// the emulator's own crypto handlers.
import { createPrivateKey, generateKeyPair, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

// Async keygen so an RSA_4096 CreateKey does not stall other requests.
const generateRsaKeyPair = promisify(generateKeyPair);

/** An error KMS would return; `type` becomes the wire `__type` and the SDK error `.name`. */
export class KmsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = type;
  }
}

export const RSA_KEY_SPECS = { RSA_2048: 2048, RSA_3072: 3072, RSA_4096: 4096 } as const;
export type RsaKeySpec = keyof typeof RSA_KEY_SPECS;
/** KMS's default key spec: a 256-bit AES-GCM key that never leaves the service. */
export const SYMMETRIC_KEY_SPEC = 'SYMMETRIC_DEFAULT';
export type KeySpec = RsaKeySpec | typeof SYMMETRIC_KEY_SPEC;
export type KeyState = 'Enabled' | 'Disabled' | 'PendingDeletion';
export interface Tag {
  TagKey: string;
  TagValue: string;
}

interface KeyRecordBase {
  id: string;
  description: string;
  tags: Tag[];
  state: KeyState;
  creationDate: number; // epoch seconds, the JSON protocol's timestamp format
  deletionDate?: number;
  pendingWindowInDays?: number;
}

export interface RsaKeyRecord extends KeyRecordBase {
  spec: RsaKeySpec;
  privateKey: KeyObject;
}

export interface SymmetricKeyRecord extends KeyRecordBase {
  spec: typeof SYMMETRIC_KEY_SPEC;
  secretKey: Buffer; // 32 bytes, AES-256-GCM
}

export type KeyRecord = RsaKeyRecord | SymmetricKeyRecord;

export interface AliasRecord {
  name: string;
  targetKeyId: string;
  creationDate: number;
  lastUpdatedDate: number;
}

// Key material in the data file, a local dev secret (mode 0600, git-ignored). Files written
// before symmetric keys existed hold RSA keys only and load unchanged.
interface PersistedKey extends KeyRecordBase {
  spec: KeySpec;
  privateKeyPem?: string; // RSA: PKCS8
  secretKeyBase64?: string; // symmetric
}
interface PersistedState {
  version: 1;
  keys: PersistedKey[];
  aliases: AliasRecord[];
}

// Mirrors the real service's rules: alias/ prefix, limited charset, alias/aws/ reserved.
const ALIAS_NAME = /^alias\/[a-zA-Z0-9/_-]+$/;
const nowSeconds = (): number => Date.now() / 1000;

export class KmsStore {
  private readonly keys = new Map<string, KeyRecord>();
  private readonly aliases = new Map<string, AliasRecord>();
  private readonly arnPrefix: string;

  constructor(
    readonly region: string,
    readonly accountId: string,
    private readonly dataFile?: string,
  ) {
    this.arnPrefix = `arn:aws:kms:${region}:${accountId}:`;
    if (dataFile) this.load(dataFile);
  }

  keyArn(id: string): string {
    return `${this.arnPrefix}key/${id}`;
  }

  aliasArn(name: string): string {
    return this.arnPrefix + name;
  }

  async createKey(spec: KeySpec, description: string, tags: Tag[]): Promise<KeyRecord> {
    const base = { id: randomUUID(), description, tags, state: 'Enabled' as const, creationDate: nowSeconds() };
    let key: KeyRecord;
    if (spec === SYMMETRIC_KEY_SPEC) {
      key = { ...base, spec, secretKey: randomBytes(32) };
    } else {
      const { privateKey } = await generateRsaKeyPair('rsa', { modulusLength: RSA_KEY_SPECS[spec] });
      key = { ...base, spec, privateKey };
    }
    this.keys.set(key.id, key);
    this.save();
    return key;
  }

  /** Resolves any of the four KeyId forms KMS accepts: key id, key ARN, alias name, alias ARN. */
  findKey(keyId: string): KeyRecord {
    const isArn = keyId.startsWith('arn:');
    // An ARN for another region/account can never match, like calling the wrong regional endpoint.
    const local = isArn ? (keyId.startsWith(this.arnPrefix) ? keyId.slice(this.arnPrefix.length) : '') : keyId;
    if (local.startsWith('alias/')) {
      const alias = this.aliases.get(local);
      if (!alias) throw new KmsError('NotFoundException', `Alias '${this.aliasArn(local)}' is not found.`);
      return this.findKey(alias.targetKeyId);
    }
    // A key ARN's resource part is "key/<id>"; a bare id has no prefix.
    const id = isArn ? (local.startsWith('key/') ? local.slice('key/'.length) : undefined) : local;
    const key = id === undefined ? undefined : this.keys.get(id);
    if (!key) throw new KmsError('NotFoundException', `Key '${isArn ? keyId : this.keyArn(keyId)}' does not exist`);
    return key;
  }

  /** The key a symmetric ciphertext names, if this emulator holds it (no alias or ARN forms). */
  keyById(id: string): KeyRecord | undefined {
    return this.keys.get(id);
  }

  /** Key for a cryptographic operation: must exist and be Enabled, like real KMS. */
  usableKey(keyId: string): KeyRecord {
    const key = this.findKey(keyId);
    this.assertNotPendingDeletion(key);
    if (key.state === 'Disabled') throw new KmsError('DisabledException', `${this.keyArn(key.id)} is disabled.`);
    return key;
  }

  assertNotPendingDeletion(key: KeyRecord): void {
    if (key.state === 'PendingDeletion') {
      throw new KmsError('KMSInvalidStateException', `${this.keyArn(key.id)} is pending deletion.`);
    }
  }

  /** Applies a state change and persists it; callers validate the transition. */
  updateKey(key: KeyRecord, changes: Partial<Pick<KeyRecord, 'state' | 'deletionDate' | 'pendingWindowInDays'>>): void {
    Object.assign(key, changes);
    if (key.state !== 'PendingDeletion') {
      delete key.deletionDate;
      delete key.pendingWindowInDays;
    }
    this.save();
  }

  listKeys(): KeyRecord[] {
    return [...this.keys.values()];
  }

  listAliases(targetKeyId?: string): AliasRecord[] {
    const all = [...this.aliases.values()].sort((a, b) => a.name.localeCompare(b.name));
    return targetKeyId ? all.filter((a) => a.targetKeyId === targetKeyId) : all;
  }

  /** CreateAlias/UpdateAlias targets: real KMS only accepts a key id or key ARN here, not another alias. */
  putAlias(name: string, targetKeyId: string, mode: 'create' | 'update'): void {
    if (targetKeyId.includes('alias/')) {
      throw new KmsError('ValidationException', 'TargetKeyId must be a key ID or key ARN, not an alias');
    }
    const key = this.findKey(targetKeyId);
    this.assertNotPendingDeletion(key);
    const existing = this.aliases.get(name);
    const now = nowSeconds();
    if (mode === 'create') {
      if (!ALIAS_NAME.test(name) || name.length > 256) {
        throw new KmsError('InvalidAliasNameException', `Alias name '${name}' must start with alias/ and contain only [a-zA-Z0-9/_-]`);
      }
      if (name.startsWith('alias/aws/')) {
        throw new KmsError('InvalidAliasNameException', `Alias name '${name}' uses the reserved alias/aws/ prefix`);
      }
      if (existing) throw new KmsError('AlreadyExistsException', `An alias with the name ${this.aliasArn(name)} already exists`);
      this.aliases.set(name, { name, targetKeyId: key.id, creationDate: now, lastUpdatedDate: now });
    } else {
      if (!existing) throw new KmsError('NotFoundException', `Alias '${this.aliasArn(name)}' is not found.`);
      Object.assign(existing, { targetKeyId: key.id, lastUpdatedDate: now });
    }
    this.save();
  }

  deleteAlias(name: string): void {
    if (!this.aliases.delete(name)) throw new KmsError('NotFoundException', `Alias '${this.aliasArn(name)}' is not found.`);
    this.save();
  }

  private load(file: string): void {
    let raw: string;
    try {
      raw = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // first run: start empty
      throw err;
    }
    // A corrupt file is fatal on purpose: silently starting empty would lose keys
    // that existing ciphertexts depend on the next time we save.
    const state = JSON.parse(raw) as PersistedState;
    if (state.version !== 1) throw new Error(`${file}: unsupported KMS data version ${String(state.version)}`);
    for (const { privateKeyPem, secretKeyBase64, spec, ...rest } of state.keys) {
      if (spec === SYMMETRIC_KEY_SPEC) {
        if (!secretKeyBase64) throw new Error(`${file}: symmetric key ${rest.id} has no key material`);
        this.keys.set(rest.id, { ...rest, spec, secretKey: Buffer.from(secretKeyBase64, 'base64') });
      } else {
        if (!privateKeyPem) throw new Error(`${file}: RSA key ${rest.id} has no key material`);
        this.keys.set(rest.id, { ...rest, spec, privateKey: createPrivateKey(privateKeyPem) });
      }
    }
    for (const alias of state.aliases) this.aliases.set(alias.name, alias);
  }

  /**
   * Writes synchronously so concurrent requests can never interleave writes out of
   * order, and via tmp + rename so a crash mid-write never leaves a truncated file.
   */
  private save(): void {
    if (!this.dataFile) return;
    const state: PersistedState = {
      version: 1,
      keys: this.listKeys().map(persistedKey),
      aliases: [...this.aliases.values()],
    };
    mkdirSync(dirname(this.dataFile), { recursive: true });
    // Unique tmp name so the 0600 mode always applies to a freshly created file.
    const tmp = `${this.dataFile}.${process.pid}.${randomUUID()}.tmp`;
    writeFileSync(tmp, JSON.stringify(state, null, 2), { mode: 0o600 });
    renameSync(tmp, this.dataFile);
  }
}

function persistedKey(key: KeyRecord): PersistedKey {
  if (key.spec === SYMMETRIC_KEY_SPEC) {
    const { secretKey, ...rest } = key;
    return { ...rest, secretKeyBase64: secretKey.toString('base64') };
  }
  const { privateKey, ...rest } = key;
  return { ...rest, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
