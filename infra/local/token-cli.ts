import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PERMISSIONS } from '../../lib/auth/principal.js';
import { ensureDevIdentity, signDevToken, type DevTokenClaims } from './dev-identity.js';

/**
 * `npm run token -- --realm platform`
 * `npm run token -- --realm tenant --tenant T [--merchant M] [--outlets O1,O2] --permissions P1,P2 [--ttl S]`
 * Prints one access token and nothing else on stdout (SPEC §7).
 */
const { values } = parseArgs({
  options: {
    realm: { type: 'string' },
    tenant: { type: 'string' },
    merchant: { type: 'string' },
    outlets: { type: 'string' },
    permissions: { type: 'string' },
    ttl: { type: 'string', default: '3600' },
    'data-dir': { type: 'string', default: process.env.DATA_DIR ?? '.data' },
  },
  strict: true,
});

function fail(message: string): never {
  process.stderr.write(`token: ${message}\n`);
  process.exit(2);
}

const list = (value: string | undefined) => value?.split(',').map((item) => item.trim()).filter(Boolean);
const ttl = Number(values.ttl);
if (!Number.isInteger(ttl) || ttl <= 0) fail('--ttl must be a positive number of seconds');
if (values.realm !== 'platform' && values.realm !== 'tenant') fail('--realm must be platform or tenant');
if (values.realm === 'tenant' && !values.tenant) fail('--tenant is required for a tenant token');
const permissions = list(values.permissions) ?? (values.realm === 'platform' ? [...PERMISSIONS] : []);
const unknown = permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
if (unknown.length) process.stderr.write(`token: warning: unknown permissions ${unknown.join(', ')}\n`);

const claims: DevTokenClaims = {
  realm: values.realm,
  permissions,
  ...(values.realm === 'tenant' ? { tenantRef: values.tenant } : {}),
  ...(values.merchant ? { merchantRef: values.merchant } : {}),
  ...(values.outlets ? { outletIds: list(values.outlets) } : {}),
};
const identity = await ensureDevIdentity(resolve(values['data-dir']!));
process.stdout.write((await signDevToken(identity, claims, ttl)) + '\n');
