import { promises as dns } from 'node:dns';
import { classifyAddress, type RefusalReason } from './address-policy.js';

/** Every address a host name resolves to (the port `assertSafeWebhookUrl` and the sender share). */
export type LookupAll = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** What the delivery may connect to: `loopbackOnly` for http URLs, which exist only for loopback hosts. */
export interface AddressPolicy {
  allowLoopback: boolean;
  loopbackOnly?: boolean;
}

/** A resolution that takes longer than this is treated as "does not resolve". */
export const DNS_TIMEOUT_MS = 3_000;

export const systemLookupAll: LookupAll = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** The error every failed or empty resolution becomes; `code` keeps the resolver's own (ENOTFOUND…). */
export class HostResolutionError extends Error {
  readonly code: string;
  constructor(code: string, options?: { cause?: unknown }) {
    super('the host name could not be resolved', options);
    this.name = 'HostResolutionError';
    this.code = code;
  }
}

/** Resolves with a bound: `dns.lookup` cannot be cancelled, so a slow one is abandoned, not awaited. */
export async function resolveAll(hostname: string, lookup: LookupAll = systemLookupAll): Promise<{ address: string; family: 4 | 6 }[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HostResolutionError('EDNSTIMEOUT')), DNS_TIMEOUT_MS);
  });
  try {
    const answers = await Promise.race([lookup(hostname), timeout]);
    if (answers.length === 0) throw new HostResolutionError('ENOTFOUND');
    return answers;
  } catch (error) {
    if (error instanceof HostResolutionError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    throw new HostResolutionError(typeof code === 'string' && /^E[A-Z_]+$/.test(code) ? code : 'ENOTFOUND', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why this address may not receive the delivery, or undefined when it may. For an http URL
 * every address must be loopback: plain http is a sandbox convenience for the merchant's own
 * machine, never a way to send events unencrypted over a network.
 */
export function refusalFor(address: string, policy: AddressPolicy): RefusalReason | 'scheme' | undefined {
  const verdict = classifyAddress(address, { allowLoopback: policy.allowLoopback });
  if (!verdict.allowed) return verdict.reason;
  if (!policy.loopbackOnly) return undefined;
  const strict = classifyAddress(address, { allowLoopback: false });
  return !strict.allowed && strict.reason === 'loopback' ? undefined : 'scheme';
}
