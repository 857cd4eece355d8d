import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

export interface KeyFileSpec {
  kid: string;
  alg: 'RS256' | 'ES256' | 'PS256';
}

/**
 * A private JWK set on disk (mode 0600, under .data/) plus its public JWKS next to it.
 * Created once; later starts reuse it, so tokens and signatures stay valid across restarts.
 */
export async function ensureKeyFiles(privatePath: string, publicPath: string, specs: KeyFileSpec[]): Promise<JWK[]> {
  const existing = await readJson<{ keys: JWK[] }>(privatePath);
  if (existing && specs.every((spec) => existing.keys.some((key) => key.kid === spec.kid))) return existing.keys;
  const keys: JWK[] = [];
  for (const spec of specs) {
    const { privateKey } = await generateKeyPair(spec.alg, { extractable: true, modulusLength: 2048 });
    keys.push({ ...(await exportJWK(privateKey)), kid: spec.kid, alg: spec.alg, use: 'sig' });
  }
  await mkdir(dirname(privatePath), { recursive: true });
  await writeFile(privatePath, JSON.stringify({ keys }, null, 2), { mode: 0o600 });
  await chmod(privatePath, 0o600);
  await writeFile(publicPath, JSON.stringify({ keys: keys.map(publicPart) }, null, 2));
  return keys;
}

export function publicPart(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = jwk;
  return rest;
}

export async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
