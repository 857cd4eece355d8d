import { resolve } from 'node:path';
import { PERMISSIONS } from '../../lib/core/auth/principal.js';
import { parseCommandLine, refuseNpmBannerOnStdout, usageError } from './cli.js';
import { ensureDevIdentity, signDevToken, type DevTokenClaims } from './dev-identity.js';

/**
 * `npm run -s token -- --realm platform`
 * `npm run -s token -- --realm tenant --tenant T [--merchant M] [--outlets O1,O2] --permissions P1,P2 [--ttl S]`
 * Prints one access token and nothing else on stdout (SPEC §7); -s keeps npm's banner off it.
 */
const USAGE = `
Usage: npm run -s token -- --realm platform [--permissions P1,P2] [--ttl SECONDS]
       npm run -s token -- --realm tenant --tenant T [--merchant M] [--outlets O1,O2] --permissions P1,P2 [--ttl SECONDS]

Prints one access token (a JWT the local service accepts) and nothing else on stdout:
  TOKEN=$(npm run -s token -- --realm platform)
(-s: npm's "> token" banner would go to stdout too; captured without it, this refuses.)

  --realm platform|tenant   platform: every tenant; tenant: one tenant (--tenant)
  --tenant T                the tenantRef of a tenant token
  --merchant M              narrow a tenant token to one merchant
  --outlets O1,O2           narrow a tenant token to these outlets
  --permissions P1,P2       default for a platform token: all of them; known:
                            ${PERMISSIONS.join(', ')}
  --ttl SECONDS             lifetime (default 3600)
  --data-dir DIR            the local service's data directory (default $DATA_DIR or .data)
  -h, --help                this text
`;

const values = parseCommandLine('token', USAGE, {
  realm: { type: 'string' },
  tenant: { type: 'string' },
  merchant: { type: 'string' },
  outlets: { type: 'string' },
  permissions: { type: 'string' },
  ttl: { type: 'string', default: '3600' },
  'data-dir': { type: 'string', default: process.env.DATA_DIR ?? '.data' },
});
refuseNpmBannerOnStdout('token');

function fail(message: string): never {
  return usageError('token', message);
}

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
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
process.stdout.write(`${await signDevToken(identity, claims, ttl)}\n`);
