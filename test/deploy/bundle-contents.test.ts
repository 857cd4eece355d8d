import { build } from 'esbuild';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What each function's bundle drags in decides its cold start (docs/benchmarks.md "Cold start"). Built here
 * with esbuild as serverless.yml's custom.esbuild does (bundle, minify, node), metafile only:
 * a module with bytes in the output is one the function parses and evaluates at init.
 */
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

async function bundledInputs(functionDir: string): Promise<string[]> {
  const result = await build({
    entryPoints: [resolve(ROOT, 'functions', functionDir, 'handler.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    write: false,
    outdir: 'unused',
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs).filter((file) => file.entryPoint);
  // A module esbuild resolved but shook out entirely contributes 0 bytes: it is not loaded.
  return Object.entries(output!.inputs)
    .filter(([, contribution]) => contribution.bytesInOutput > 0)
    .map(([module]) => module);
}

/** Payment-only or opt-in modules a configuration function must never load. */
const NOT_FOR_CONFIG = [
  /^lib\/core\/checkout\//, // checkout crypto: JWS/JWE, payment data
  /^lib\/adapters\/jwks\/network-key-ring\.ts$/, // the networks' keys
  /^lib\/adapters\/sandbox\//,
  /^lib\/adapters\/processors\//,
  /^lib\/adapters\/three-ds\//,
  /^lib\/core\/(payments|operations)\//,
  /^lib\/composition\/(payments|acquirers|sandbox-src|idempotency|idempotent-api-handler|three-ds-server)\.ts$/,
  // The 3DS Server's API key is read by the payment functions alone (SPEC 4.17).
  /node_modules\/@aws-sdk\/client-secrets-manager\//,
  /^lib\/http\/idempotency\.ts$/,
  /node_modules\/@aws-lambda-powertools\/(idempotency|jmespath)\//,
];
/**
 * zod's locales are ~350 KiB minified: `import { z } from 'zod'` keeps them all, `import * as z`
 * shakes all but English (its default error map).
 */
const ZOD_LOCALES = /node_modules\/zod\/v4\/locales\/(?!en\.js$)/;

describe('function bundles carry only what the function uses', () => {
  const inputs = {
    getMerchantConfig: bundledInputs('get-merchant-config'),
    putMerchantConfig: bundledInputs('put-merchant-config'),
    payClickToPay: bundledInputs('pay-click-to-pay'),
  };

  it.each(['getMerchantConfig', 'putMerchantConfig'] as const)('%s loads no checkout crypto, sandbox, payment or idempotency module', async (name) => {
    const modules = await inputs[name];
    expect(modules).toContain('lib/http/api-handler.ts'); // the build really is the function's
    for (const forbidden of NOT_FOR_CONFIG)
      expect(
        modules.filter((module) => forbidden.test(module)),
        String(forbidden),
      ).toEqual([]);
  });

  it('the check sees them where they belong: the 4.3 function bundles the checkout crypto and the idempotency guard', async () => {
    const modules = await inputs.payClickToPay;
    for (const expected of [
      /^lib\/core\/checkout\/jws\.ts$/,
      /^lib\/http\/idempotency\.ts$/,
      /node_modules\/@aws-lambda-powertools\/idempotency\//,
      // …and the production 3DS Server with the client that reads its API key.
      /^lib\/adapters\/three-ds\/threedsecure-io\/server\.ts$/,
      /node_modules\/@aws-sdk\/client-secrets-manager\//,
    ]) {
      expect(
        modules.some((module) => expected.test(module)),
        String(expected),
      ).toBe(true);
    }
  });

  it.each(['getMerchantConfig', 'putMerchantConfig', 'payClickToPay'] as const)('%s does not bundle zod’s locales', async (name) => {
    expect((await inputs[name]).filter((module) => ZOD_LOCALES.test(module))).toEqual([]);
  });
});

describe('error names survive minification', () => {
  it('every error class of lib/core/errors.ts, bundled minified, is still logged under its own name', async () => {
    const result = await build({
      entryPoints: [resolve(ROOT, 'lib/core/errors.ts')],
      absWorkingDir: ROOT,
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const source = Buffer.from(result.outputFiles[0]!.contents).toString('base64');
    const errors = (await import(`data:text/javascript;base64,${source}`)) as Record<string, unknown>;
    const classes = Object.entries(errors).filter(
      ([exported, value]) => exported !== 'DomainError' && typeof value === 'function' && value.prototype instanceof Error,
    ) as [string, new (detail?: string) => Error][];
    expect(classes.length).toBeGreaterThan(20);
    for (const [exported, ErrorClass] of classes) expect(new ErrorClass('detail').name).toBe(exported);
  });
});
