import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JWK } from 'jose';
import { ensureKeyFiles, readJson } from './jwk-files.js';

/**
 * The sandbox card network's signing keys (SPEC §5). The service trusts their JWKS under
 * the network name `sandbox`, which it accepts for merchants in the `sandbox` environment
 * only. The private half is what the sandbox SRC simulator signs checkout responses with.
 */
export { SANDBOX_NETWORK } from '../../lib/core/domain/networks.js';
export const SANDBOX_SIGNING_KEYS = [
  { kid: 'sandbox-network-rs256', alg: 'RS256' },
  { kid: 'sandbox-network-es256', alg: 'ES256' },
] as const;

export interface SandboxNetwork {
  jwksUrl: string;
  privatePath: string;
}

export async function ensureSandboxNetwork(dataDir: string): Promise<SandboxNetwork> {
  const privatePath = join(dataDir, 'sandbox-network', 'private-jwks.json');
  const publicPath = join(dataDir, 'sandbox-network', 'jwks.json');
  await ensureKeyFiles(privatePath, publicPath, [...SANDBOX_SIGNING_KEYS]);
  return { jwksUrl: pathToFileURL(publicPath).href, privatePath };
}

export async function sandboxSigningKeys(network: SandboxNetwork): Promise<JWK[]> {
  const stored = await readJson<{ keys: JWK[] }>(network.privatePath);
  if (!stored) throw new Error(`No sandbox network keys in ${network.privatePath}: run npm start once first.`);
  return stored.keys;
}
