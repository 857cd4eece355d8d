import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const OfflineBundle = require('../../infra/serverless/offline-bundle.cjs') as new (serverless: unknown) => { hooks: Record<string, () => unknown> };
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Just enough of osls' serverless object for the plugin: two real handlers. */
function serverless(commands: string[], workFolder: string) {
  const functions: Record<string, Record<string, unknown>> = {
    getEncryptionKeys: { handler: 'functions/get-encryption-keys/handler.handler' },
    getOrder: { handler: 'functions/get-order/handler.handler' },
  };
  return {
    processedInput: { commands },
    serviceDir: ROOT,
    config: { servicePath: ROOT },
    classes: { Error },
    functions,
    service: {
      custom: {
        esbuild: {
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node22',
          outputFileExtension: '.mjs',
          splitting: true,
          outputWorkFolder: workFolder,
          exclude: [],
          keepOutputDirectory: true,
        },
        'serverless-offline': { httpPort: 3000 },
      },
      getAllFunctions: () => Object.keys(functions),
      getFunction: (name: string) => functions[name],
    },
  };
}

const work = mkdtempSync(join(tmpdir(), 'ctp-offline-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('osls offline bundles every function in one esbuild run (infra/serverless/offline-bundle.cjs)', () => {
  it('offline: serverless-esbuild skips every function, serverless-offline loads the bundles from the work folder', async () => {
    const sls = serverless(['offline', 'start'], work);
    const plugin = new OfflineBundle(sls);
    await plugin.hooks.initialize!();
    expect(Object.values(sls.functions).every((fn) => fn.skipEsbuild === true)).toBe(true);
    const location = join(work, '.offline');
    expect(sls.service.custom['serverless-offline']).toEqual({ httpPort: 3000, location });
    await plugin.hooks['before:offline:start:init']!();
    for (const dir of ['get-encryption-keys', 'get-order']) expect(existsSync(join(location, 'functions', dir, 'handler.mjs')), dir).toBe(true);
    // One build: what both handlers share is written once, as chunks beside them.
    expect(readdirSync(location).some((file) => file.endsWith('.mjs'))).toBe(true);
    const { handler } = await import(join(location, 'functions', 'get-order', 'handler.mjs'));
    expect(typeof handler).toBe('function');
  });

  it('package and deploy are left to serverless-esbuild: no hooks', () => {
    for (const commands of [['package'], ['deploy'], ['deploy', 'function']]) {
      const sls = serverless(commands, work);
      expect(new OfflineBundle(sls).hooks).toEqual({});
      expect(Object.values(sls.functions).some((fn) => 'skipEsbuild' in fn)).toBe(false);
    }
  });
});
