import { readFile } from 'node:fs/promises';
import { withCallSignal } from '../../../core/deadline.js';
import type { JWK } from 'jose';
import * as z from 'zod';
import { DependencyUnavailableError, InternalError } from '../../../core/errors.js';

const privateJwk = z.looseObject({
  kid: z.string().min(1),
  alg: z.enum(['RS256', 'PS256', 'ES256']),
  kty: z.enum(['RSA', 'EC']),
  d: z.string().min(1),
});
const privateJwks = z.object({ keys: z.array(privateJwk).min(1) });

/**
 * The sandbox network's PRIVATE signing keys (SANDBOX_NETWORK_SIGNING_JWKS_URL, `file:` or
 * `http(s):`), loaded once per cold start. Their public halves are what the service trusts
 * under the network name `sandbox` (NETWORK_JWKS_URLS), for sandbox merchants only.
 */
export class NetworkSigningKeys {
  private keys: Promise<JWK[]> | undefined;

  constructor(
    private readonly url: string,
    private readonly timeoutMs = 3_000,
  ) {}

  /** The first key with one of `algorithms` (in that order of preference), else the first key. */
  async pick(algorithms: readonly string[]): Promise<JWK> {
    this.keys ??= this.load().catch((error: unknown) => {
      this.keys = undefined; // a failed load is retried by the next request
      throw error;
    });
    const keys = await this.keys;
    for (const alg of algorithms) {
      const key = keys.find((candidate) => candidate.alg === alg);
      if (key) return key;
    }
    return keys[0]!;
  }

  private async load(): Promise<JWK[]> {
    let text: string;
    try {
      text = this.url.startsWith('file:') ? await readFile(new URL(this.url), 'utf8') : await this.fetchText();
    } catch (cause) {
      throw new DependencyUnavailableError(undefined, { cause: new Error('sandbox network signing keys unavailable', { cause }) });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const result = privateJwks.safeParse(parsed);
    // Never echo the document: it is private key material.
    if (!result.success) throw new InternalError(undefined, { cause: new Error('sandbox network signing JWKS is not a private JWK set') });
    return result.data.keys as JWK[];
  }

  private fetchText(): Promise<string> {
    return withCallSignal(this.timeoutMs, async (signal) => {
      const response = await fetch(this.url, { signal, redirect: 'error' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.text();
    });
  }
}
