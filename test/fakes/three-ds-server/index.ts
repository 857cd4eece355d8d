import { apiHandler } from './api-server.js';
import { acsHandler } from './acs-server.js';
import { Faults } from './faults.js';
import { listen } from './http-util.js';
import { Ledger } from './ledger.js';
import { Transactions } from './transactions.js';

export { testAccount } from './test-cards.js';
export { CHALLENGE_CODE } from './decisions.js';

/**
 * A fake 3DS Server (3dsecure.io's API) with its directory server and ACS, over real HTTP on
 * loopback: the API on one port, the ACS (3DS Method URL, challenge) on another origin.
 * Decisions by card and amount: decisions.ts. Validation: the published tables
 * (lib/adapters/three-ds/threedsecure-io/field-tables/). `ledger` counts what arrived;
 * `faults` makes the next calls hang, fail, reset or lose their answer.
 */
export interface FakeThreeDsServerOptions {
  apiKey?: string;
  /** Fixed ports for a demo (`npm start`); random by default. */
  apiPort?: number;
  acsPort?: number;
  host?: string;
  now?: () => number;
  transactionTtlMs?: number;
  rreqTtlMs?: number;
  creqTimeoutMs?: number;
  dsTimeoutMs?: number;
  slowMs?: number;
  paddedCres?: boolean;
  /** Accept http://localhost and http://127.0.0.1 where 2.3.1 wants https (demo and tests). Default true. */
  loopbackHttpAllowed?: boolean;
}

export interface FakeThreeDsServer {
  apiUrl: string;
  acsUrl: string;
  apiKey: string;
  ledger: Ledger;
  faults: Faults;
  close(): Promise<void>;
}

export async function startFakeThreeDsServer(options: FakeThreeDsServerOptions = {}): Promise<FakeThreeDsServer> {
  const now = options.now ?? Date.now;
  const apiKey = options.apiKey ?? '8d1f7c2e-5b6a-4e3d-9c0b-fake3dsecure';
  const ledger = new Ledger();
  const faults = new Faults();
  const transactions = new Transactions();
  const creqTimeoutMs = options.creqTimeoutMs ?? 30_000;
  const acs = await listen(
    acsHandler({ transactions, ledger, now, creqTimeoutMs, paddedCres: options.paddedCres ?? false }),
    options.acsPort ?? 0,
    options.host,
  );
  const api = await listen(
    apiHandler({
      apiKey,
      acsUrl: () => acs.url,
      transactions,
      ledger,
      faults,
      now,
      transactionTtlMs: options.transactionTtlMs ?? 80_000,
      rreqTtlMs: options.rreqTtlMs ?? 300_000,
      creqTimeoutMs,
      dsTimeoutMs: options.dsTimeoutMs ?? 0,
      slowMs: options.slowMs ?? 3_000,
      loopbackHttpAllowed: options.loopbackHttpAllowed ?? true,
    }),
    options.apiPort ?? 0,
    options.host,
  );
  return {
    apiUrl: api.url,
    acsUrl: acs.url,
    apiKey,
    ledger,
    faults,
    close: async () => {
      transactions.clearTimers();
      await Promise.all([api.close(), acs.close()]);
    },
  };
}
