import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import yaml from 'js-yaml';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What each function's bundle drags in decides its cold start (docs/benchmarks.md "Cold start"). Built here
 * with esbuild as serverless.yml's custom.esbuild does (bundle, minify, node), metafile only:
 * a module with bytes in the output is one the function parses and evaluates at init.
 */
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

interface Bundle {
  /** Modules with bytes in the output: parsed at init (evaluated at once, or when first imported). */
  inputs: string[];
  /** Of those, the ones reached from the handler by static imports only: evaluated at init. */
  atInit: string[];
  bytes: Record<string, number>;
}

async function bundled(functionDir: string): Promise<Bundle> {
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
  const present = Object.entries(output!.inputs).filter(([, contribution]) => contribution.bytesInOutput > 0);
  const inputs = present.map(([module]) => module);
  // What the handler's static imports reach; a dynamic import() edge is not followed: esbuild
  // wraps what only it reaches so that it is evaluated on the first import(), not at init.
  const atInit = new Set<string>();
  const queue = [output!.entryPoint!];
  while (queue.length > 0) {
    const module = queue.pop()!;
    if (atInit.has(module)) continue;
    atInit.add(module);
    for (const edge of result.metafile.inputs[module]?.imports ?? []) if (edge.kind !== 'dynamic-import' && !edge.external) queue.push(edge.path);
  }
  return { inputs, atInit: inputs.filter((module) => atInit.has(module)), bytes: Object.fromEntries(present.map(([module, c]) => [module, c.bytesInOutput])) };
}

const bundledInputs = async (functionDir: string) => (await bundled(functionDir)).inputs;

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
 * shakes all but English (its default error map). A module that is only import()ed (a processor
 * adapter) keeps zod's namespace object, whose `locales` member is an empty stub of a few bytes
 * in locales/index.js: the locales themselves stay out, which is what the size check says.
 */
const ZOD_LOCALES = /node_modules\/zod\/v4\/locales\/(?!en\.js$)/;
const localeBytes = (bundle: Bundle) =>
  Object.entries(bundle.bytes)
    .filter(([module]) => ZOD_LOCALES.test(module))
    .reduce((total, [, bytes]) => total + bytes, 0);

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

  it.each(['get-merchant-config', 'put-merchant-config', 'pay-click-to-pay', 'create-capture'])('%s does not bundle zod’s locales', async (dir) => {
    expect(localeBytes(await bundled(dir))).toBeLessThan(100); // one locale is kilobytes
  });
});

/**
 * SPEC 4.16 / issue 20 item 8: a processor's adapter (and the Secrets Manager client its
 * credentials are read with) is loaded with import() only for a merchant that uses it, so the
 * cold start of the payment functions — and of every merchant on another processor, or on the
 * sandbox — does not grow with the processors the service can reach.
 */
const PROCESSOR_ADAPTERS = [
  /^lib\/adapters\/processors\/(adyen|checkout-com)\//,
  /^lib\/composition\/processors\/(adyen|checkout-com)\.ts$/,
  /^lib\/composition\/secrets\.ts$/,
  /node_modules\/@aws-sdk\/client-secrets-manager\//,
];

describe('processor adapters load on first use', () => {
  it.each(['pay-click-to-pay', 'pay-direct', 'complete-3ds', 'create-capture', 'create-refund', 'create-reversal', 'webhook-delivery'])(
    '%s evaluates no processor adapter at init, and reaches each only through import()',
    async (dir) => {
      const bundle = await bundled(dir);
      for (const adapter of PROCESSOR_ADAPTERS) {
        expect(
          bundle.atInit.filter((module) => adapter.test(module)),
          String(adapter),
        ).toEqual([]);
        expect(
          bundle.inputs.some((module) => adapter.test(module)),
          `${String(adapter)} is bundled for its merchants`,
        ).toBe(true);
      }
      if (dir !== 'webhook-delivery') expect(bundle.atInit).toContain('lib/composition/processors/registry.ts');
    },
  );

  it('the Adyen notification function verifies with Adyen’s code alone: no Checkout.com adapter, no Adyen API client', async () => {
    const bundle = await bundled('adyen-notifications');
    expect(bundle.inputs).toContain('lib/adapters/processors/adyen/notifications/hmac.ts');
    expect(bundle.inputs.filter((module) => /^lib\/adapters\/processors\/checkout-com\//.test(module))).toEqual([]);
    expect(bundle.inputs.filter((module) => /^lib\/adapters\/processors\/adyen\/(client|adapter)\.ts$/.test(module))).toEqual([]);
  });
});

/**
 * serverless.yml builds with code splitting: what a function reaches only through import() is
 * written to chunks of its own, which the handler does not import statically, so a cold start
 * neither reads nor compiles them (in one file they would be parsed at init although never run).
 * Built here with serverless.yml's own splitting options; the files read at init are the
 * handler's output and, transitively, the chunks it imports statically.
 */
const CLOUDFORMATION_TAGS = ['!Ref', '!Sub', '!GetAtt'].flatMap((tag) =>
  (['scalar', 'sequence'] as const).map((kind) => new yaml.Type(tag, { kind, construct: (data: unknown) => ({ [tag]: data }) })),
);
const ESBUILD = (
  yaml.load(readFileSync(resolve(ROOT, 'serverless.yml'), 'utf8'), { schema: yaml.DEFAULT_SCHEMA.extend(CLOUDFORMATION_TAGS) }) as {
    custom: { esbuild: { splitting?: boolean; chunkNames?: string } };
  }
).custom.esbuild;

async function split(functionDir: string): Promise<{ atInit: string[]; lazy: string[]; commonJsImportedDynamically: string[]; importedEntries: string[] }> {
  const result = await build({
    entryPoints: [resolve(ROOT, 'functions', functionDir, 'handler.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    splitting: ESBUILD.splitting,
    chunkNames: ESBUILD.chunkNames,
    write: false,
    outdir: resolve(ROOT, 'functions', functionDir),
    metafile: true,
    logLevel: 'silent',
  });
  const { outputs } = result.metafile;
  // Each import()ed module is an entry point of its own chunk: the handler's output is the one of its source.
  const entry = Object.keys(outputs).find((file) => outputs[file]!.entryPoint === `functions/${functionDir}/handler.ts`);
  const readAtInit = new Set<string>();
  const queue = [entry!];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (readAtInit.has(file)) continue;
    readAtInit.add(file);
    for (const edge of outputs[file]!.imports) if (edge.kind === 'import-statement' && !edge.external) queue.push(edge.path);
  }
  const modulesOf = (files: string[]) =>
    files.flatMap((file) =>
      Object.entries(outputs[file]!.inputs)
        .filter(([, contribution]) => contribution.bytesInOutput > 0)
        .map(([module]) => module),
    );
  const files = Object.keys(outputs).filter((file) => file.endsWith('.js') || file.endsWith('.mjs'));
  // import() of a CommonJS module from the service's own code: split, esbuild gives it `default` only.
  const { inputs } = result.metafile;
  const commonJsImportedDynamically = Object.entries(inputs)
    .filter(([module]) => /^(lib|functions)\//.test(module))
    .flatMap(([module, input]) =>
      input.imports.filter((edge) => edge.kind === 'dynamic-import' && inputs[edge.path]?.format === 'cjs').map((edge) => `${module} → ${edge.path}`),
    );
  return {
    atInit: modulesOf(files.filter((file) => readAtInit.has(file))),
    lazy: modulesOf(files.filter((file) => !readAtInit.has(file))),
    commonJsImportedDynamically,
    // The modules import() reaches as entry points of their own (the handler aside): one chunk each.
    importedEntries: Object.values(outputs)
      .map((output) => output.entryPoint)
      .filter((module): module is string => module !== undefined && module !== `functions/${functionDir}/handler.ts`),
  };
}

describe('code that only import() reaches is not read at a cold start', () => {
  it('serverless.yml splits the bundles, naming chunks after the handler (each zip gets its own: test/deploy/cloudformation.test.ts)', () => {
    expect(ESBUILD.splitting).toBe(true);
    expect(ESBUILD.chunkNames).toMatch(/^handler\./);
  });

  it.each(['pay-click-to-pay', 'complete-3ds', 'create-reversal', 'adyen-notifications', 'create-order', 'webhook-delivery'])(
    '%s: the service’s own code import()s no CommonJS module (split, esbuild would give it `default` alone, not its named exports)',
    async (dir) => {
      expect((await split(dir)).commonJsImportedDynamically).toEqual([]);
    },
  );

  it.each(['pay-click-to-pay', 'pay-direct', 'complete-3ds', 'create-capture', 'create-refund', 'create-reversal'])(
    '%s reads no processor adapter, secret source or Secrets Manager / SSM client at init: they are in chunks of their own',
    async (dir) => {
      const { atInit, lazy } = await split(dir);
      expect(atInit).toContain('lib/http/api-handler.ts'); // the build really is the function's
      for (const adapter of [...PROCESSOR_ADAPTERS, /node_modules\/@aws-sdk\/client-ssm\//]) {
        expect(
          atInit.filter((module) => adapter.test(module)),
          String(adapter),
        ).toEqual([]);
        expect(
          lazy.some((module) => adapter.test(module)),
          `${String(adapter)} is in a chunk for the merchants that use it`,
        ).toBe(true);
      }
    },
  );

  it.each(['pay-click-to-pay', 'pay-direct', 'complete-3ds'])(
    '%s reads of the production 3DS Server adapter only what checks a CRes: the client, the AReq builder, their tables and the ISO 4217 list come at the first step-up',
    async (dir) => {
      const { atInit, lazy } = await split(dir);
      expect(atInit).toContain('lib/adapters/three-ds/threedsecure-io/on-first-use.ts');
      expect(atInit).toContain('lib/adapters/three-ds/threedsecure-io/cres-check.ts');
      for (const stepUp of [
        /^lib\/adapters\/three-ds\/threedsecure-io\/(server|client|areq|purchase|http)\.ts$/,
        /^lib\/adapters\/three-ds\/threedsecure-io\/field-tables\/(areq|ares|rreq|crd)/,
        /node_modules\/currency-codes\//,
      ]) {
        expect(
          atInit.filter((module) => stepUp.test(module)),
          String(stepUp),
        ).toEqual([]);
        expect(
          lazy.some((module) => stepUp.test(module)),
          String(stepUp),
        ).toBe(true);
      }
    },
  );

  it.each(['pay-click-to-pay', 'pay-direct', 'complete-3ds'])(
    '%s import()s every production adapter at once — the processors, the secret source, the 3DS Server — and the Idempotency-Key guard with its persistence: each import() entry splits what it shares with the handler into more chunks read at init',
    async (dir) => {
      const { importedEntries } = await split(dir);
      const own = importedEntries.filter((module) => /^(lib|functions)\//.test(module));
      expect(own.sort()).toEqual([
        'lib/adapters/secrets/secrets-manager-sdk.ts', // imported by the secret source, at the first read from its store
        'lib/adapters/secrets/ssm-sdk.ts',
        'lib/composition/idempotency-guard.ts',
        'lib/composition/payment-adapters.ts',
      ]);
      expect(importedEntries.filter((module) => /^node_modules\/@aws-lambda-powertools\//.test(module))).toEqual([]);
    },
  );

  it.each(['pay-click-to-pay', 'create-order', 'rotate-webhook-secret', 'redeliver-event'])(
    '%s reads the Idempotency-Key guard and Powertools’ idempotency and JMESPath only at the first request with the header: a chunk of their own',
    async (dir) => {
      const { atInit, lazy } = await split(dir);
      expect(atInit).toContain('lib/composition/idempotency.ts');
      for (const guard of [/^lib\/http\/idempotency\.ts$/, /node_modules\/@aws-lambda-powertools\/(idempotency|jmespath)\//]) {
        expect(
          atInit.filter((module) => guard.test(module)),
          String(guard),
        ).toEqual([]);
        expect(
          lazy.some((module) => guard.test(module)),
          String(guard),
        ).toBe(true);
      }
    },
  );

  it('the Adyen notification function reads neither the Secrets Manager nor the SSM client at init: each is imported at the first key read from its store', async () => {
    const { atInit, lazy } = await split('adyen-notifications');
    expect(atInit).toContain('lib/composition/secrets.ts');
    for (const client of [/node_modules\/@aws-sdk\/client-secrets-manager\//, /node_modules\/@aws-sdk\/client-ssm\//]) {
      expect(
        atInit.filter((module) => client.test(module)),
        String(client),
      ).toEqual([]);
      expect(
        lazy.some((module) => client.test(module)),
        String(client),
      ).toBe(true);
    }
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
