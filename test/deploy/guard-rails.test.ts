// @vitest-environment node
/**
 * Deploy guard-rails on the generated CloudFormation (infra/serverless/stage.cjs, http-api.cjs,
 * functions.cjs): a production stage refuses the `*.invalid` placeholders and packages with
 * real values; without the `sandbox` param there is no /sandbox/* route, function, role or
 * route throttling; the HTTP API stage has default throttling and JSON access logs free of
 * query strings; no zip ships a source map and no function runs with --enable-source-maps.
 * The stage WITH the sandbox is cloudformation.test.ts (packaged with sandbox=true).
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageTemplate, runOsls, serviceCopy, tmpLeftovers, type ServiceCopy } from './package-template.js';
import { NETWORK_KIDS, productionPackage, type SharedPackage } from './production-package.js';

const require = createRequire(import.meta.url);
type Helpers = { resolveVariable: (name: string) => Promise<unknown> };
const stage = require('../../infra/serverless/stage.cjs') as {
  isProductionStage: (stage: string) => boolean;
  sandboxEnabled: (stage: string, value: unknown) => boolean;
  placeholderParams: (values: Record<string, unknown>) => string[];
  assertDeployable: (stage: string, values: Record<string, unknown>) => void;
  serverlessStageGuardRails: (helpers: Helpers) => Promise<{ stage: string; production: boolean; sandbox: boolean }>;
};
const { stageThrottling, ACCESS_LOG_FIELDS } = require('../../infra/serverless/http-api.cjs') as {
  stageThrottling: (rate: unknown, burst: unknown) => { rate: number; burst: number };
  ACCESS_LOG_FIELDS: Record<string, string>;
};
const { isSandboxEntry } = require('../../infra/serverless/route-table.cjs') as { isSandboxEntry: (entry: { name: string; routes: string[] }) => boolean };

const PLACEHOLDERS = {
  authIssuer: 'https://auth.example.invalid/',
  authJwksUrl: 'https://auth.example.invalid/.well-known/jwks.json',
  networkJwksUrls: 'visa=https://jwks.example.invalid/visa,mastercard=https://jwks.example.invalid/mastercard',
};
const SANDBOX_GROUPS = ['sandboxAcs', 'sandboxSrc'];

/** Fake resolver helpers: `param:name, null` → params[name] ?? null; `sls:stage` → stageName. */
const helpers = (stageName: string, params: Record<string, unknown>): Helpers => ({
  resolveVariable: async (name) => (name === 'sls:stage' ? stageName : (params[/^param:(\w+)/.exec(name)?.[1] ?? ''] ?? null)),
});

describe('which stages are production', () => {
  it('is every stage but local, dev, test and sandbox / sandbox-…', () => {
    for (const name of ['local', 'dev', 'test', 'sandbox', 'sandbox-eu']) expect(stage.isProductionStage(name), name).toBe(false);
    for (const name of ['prod', 'production', 'live', 'staging', 'prod-eu', 'sandboxed', 'devel', 'Test'])
      expect(stage.isProductionStage(name), name).toBe(true);
  });

  it('refuses the placeholders on a production stage, naming exactly the params that hold them', () => {
    expect(() => stage.assertDeployable('prod', PLACEHOLDERS)).toThrow(
      /Stage "prod" is a production stage .*: authIssuer, authJwksUrl, networkJwksUrls\. Pass real values/,
    );
    expect(() => stage.assertDeployable('live', { authIssuer: 'https://idp.example.com/', publicBaseUrl: 'https://pay.example.INVALID' })).toThrow(
      /: publicBaseUrl\./,
    );
    expect(stage.placeholderParams({ authIssuer: 'https://idp.example.com/', corsAllowedOrigins: 'https://shop.invalid:8443' })).toEqual([
      'corsAllowedOrigins',
    ]);
    // A host that merely contains "invalid" is real.
    expect(stage.placeholderParams({ authIssuer: 'https://invalid.example.com/', authJwksUrl: 'https://x.invalidation.example/' })).toEqual([]);
    expect(stage.placeholderParams({ authIssuer: 'https://auth.example.invalid./', networkJwksUrls: 'visa=https://jwks.example.invalid.:443/v' })).toEqual([
      'authIssuer',
      'networkJwksUrls',
    ]);
  });

  it('accepts the placeholders on dev, test, local and sandbox stages', () => {
    for (const name of ['dev', 'test', 'local', 'sandbox-eu']) expect(() => stage.assertDeployable(name, PLACEHOLDERS), name).not.toThrow();
  });

  it('checks the sandbox param: true/false only, always on for local, and no sandbox signing key without it', async () => {
    expect(stage.sandboxEnabled('dev', null)).toBe(false);
    expect(stage.sandboxEnabled('dev', 'false')).toBe(false);
    expect(stage.sandboxEnabled('dev', 'true')).toBe(true);
    expect(stage.sandboxEnabled('prod', true)).toBe(true);
    expect(stage.sandboxEnabled('local', null)).toBe(true);
    expect(() => stage.sandboxEnabled('dev', 'yes')).toThrow(/sandbox param must be true or false/);
    await expect(stage.serverlessStageGuardRails(helpers('dev', { sandboxNetworkSigningJwksUrl: 'https://keys.example.com/jwks' }))).rejects.toThrow(
      /sandboxNetworkSigningJwksUrl is set but the sandbox is not deployed/,
    );
    await expect(stage.serverlessStageGuardRails(helpers('dev', { sandboxAcsBaseUrl: 'https://acs.sandbox.example.com' }))).rejects.toThrow(
      /sandboxAcsBaseUrl is set but the sandbox is not deployed/,
    );
    expect(stage.placeholderParams({ sandboxAcsBaseUrl: 'https://acs.example.invalid', threeDsAcsOrigins: 'https://acs.bank.invalid' })).toEqual([
      'sandboxAcsBaseUrl',
      'threeDsAcsOrigins',
    ]);
    await expect(stage.serverlessStageGuardRails(helpers('sandbox', { sandbox: 'true', ...PLACEHOLDERS }))).resolves.toEqual({
      stage: 'sandbox',
      production: false,
      sandbox: true,
    });
    await expect(stage.serverlessStageGuardRails(helpers('prod', PLACEHOLDERS))).rejects.toThrow(/authIssuer, authJwksUrl, networkJwksUrls/);
  });

  it('lets production merchants reach the sandbox acquirer on non-production stages only (productionAcquirer)', async () => {
    const real = { authIssuer: 'https://idp.example.com/', authJwksUrl: 'https://idp.example.com/jwks', networkJwksUrls: 'visa=https://jwks.example.com/visa' };
    await expect(stage.serverlessStageGuardRails(helpers('prod', { ...real, productionAcquirer: 'sandbox' }))).rejects.toThrow(
      /production stage: productionAcquirer=sandbox/,
    );
    await expect(stage.serverlessStageGuardRails(helpers('prod', { ...real, productionAcquirer: 'none' }))).resolves.toMatchObject({ production: true });
    await expect(stage.serverlessStageGuardRails(helpers('local', { productionAcquirer: 'sandbox' }))).resolves.toMatchObject({ production: false });
    await expect(stage.serverlessStageGuardRails(helpers('dev', { productionAcquirer: 'acme' }))).rejects.toThrow(/must be none or sandbox/);
    // The sandbox acquirer keeps its operations in the sandbox table: only a stage with the sandbox has one.
    await expect(stage.serverlessStageGuardRails(helpers('dev', { productionAcquirer: 'sandbox' }))).rejects.toThrow(
      /needs the sandbox acquirer.*sandbox=true/,
    );
    await expect(stage.serverlessStageGuardRails(helpers('dev', { productionAcquirer: 'sandbox', sandbox: 'true' }))).resolves.toMatchObject({ sandbox: true });
  });

  it('refuses a function that mixes /sandbox/ routes with others', () => {
    expect(isSandboxEntry({ name: 'a', routes: ['GET /sandbox/x', 'POST /sandbox/y'] })).toBe(true);
    expect(isSandboxEntry({ name: 'b', routes: ['GET /config/x'] })).toBe(false);
    expect(isSandboxEntry({ name: 'w', routes: [] })).toBe(false);
    expect(() => isSandboxEntry({ name: 'c', routes: ['GET /sandbox/x', 'GET /config/x'] })).toThrow(/"c" mixes \/sandbox\/ routes/);
  });

  it('checks the throttling params: positive integers, burst at least the rate', () => {
    expect(stageThrottling(null, null)).toEqual({ rate: 200, burst: 400 });
    expect(stageThrottling('10', '10')).toEqual({ rate: 10, burst: 10 });
    expect(() => stageThrottling('0', '10')).toThrow(/throttlingRateLimit param must be a positive integer/);
    expect(() => stageThrottling('10', '2.5')).toThrow(/throttlingBurstLimit param must be a positive integer/);
    expect(() => stageThrottling('100', '50')).toThrow(/must be at least throttlingRateLimit/);
  });
});

describe.skipIf(!packageTemplate.possible())('osls refuses before it packages anything', () => {
  let copy: ServiceCopy;
  beforeAll(async () => {
    copy = await serviceCopy();
  }, 120_000);
  afterAll(() => copy?.cleanup());

  it('package --stage prod with the placeholders: one line naming the params, exit 1, nothing left', async () => {
    const { code, output } = await runOsls(copy, ['package', '--stage', 'prod']);
    expect(code).toBe(1);
    expect(output).toBe(
      'Refused: Stage "prod" is a production stage and these params still hold the *.invalid placeholders of serverless.yml: ' +
        'authIssuer, authJwksUrl, networkJwksUrls. Pass real values with --param "name=value", or use a non-production stage ' +
        '(local, dev, test, sandbox, sandbox-…).\n',
    );
    expect(existsSync(join(copy.dir, '.esbuild'))).toBe(false);
    expect(tmpLeftovers(copy.tmpDir)).toEqual([]);
  }, 180_000);

  it('a refused param value (a CORS origin of *) is one line too', async () => {
    const { code, output } = await runOsls(copy, ['package', '--stage', 'dev', '--param', 'corsAllowedOrigins=*']);
    expect(code).toBe(1);
    expect(output).toBe('Refused: corsAllowedOrigins item 1: "*" and "null" are never allowed origins\n');
  }, 180_000);

  it('deploy without AWS credentials says so before packaging (no network: no instance metadata, an empty home)', async () => {
    const home = join(copy.root, 'home');
    mkdirSync(home);
    const { code, output } = await runOsls(copy, ['deploy', '--stage', 'dev'], { HOME: home, AWS_EC2_METADATA_DISABLED: 'true' });
    expect(code).toBe(1);
    expect(output).toContain('AWS provider credentials not found.');
    expect(output).not.toMatch(/Packaging|Service packaged/);
    expect(output).not.toMatch(/^\s+at /m);
    expect(existsSync(join(copy.dir, '.esbuild'))).toBe(false);
    expect(existsSync(join(copy.dir, '.serverless'))).toBe(false);
    expect(tmpLeftovers(copy.tmpDir)).toEqual([]);
  }, 180_000);
});

describe.skipIf(!packageTemplate.possible())('osls package --stage prod', () => {
  describe('with real values and no sandbox param', () => {
    let packaged: SharedPackage;
    let resources: SharedPackage['template']['Resources'];
    beforeAll(async () => {
      packaged = await productionPackage();
      resources = packaged.template.Resources;
    }, 420_000);

    const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
    const functionsOf = () => ofType('AWS::Lambda::Function').map(([, r]) => r.Properties);

    it('has no /sandbox/* route, no sandbox function, role or route throttling; the fallback knows', () => {
      const routeKeys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string);
      expect(routeKeys.length).toBeGreaterThan(20);
      expect(routeKeys.filter((key) => key.includes('/sandbox'))).toEqual([]);
      const names = functionsOf().map((p) => p.FunctionName as string);
      expect(names).toContain('click-to-pay-prod-payClickToPay');
      expect(names.filter((name) => /sandbox/i.test(name))).toEqual([]);
      const roles = ofType('AWS::IAM::Role').map(([id]) => id);
      expect(roles).toContain('LambdaRolePaymentsDecrypt');
      for (const group of SANDBOX_GROUPS)
        expect(
          roles.some((id) => id.toLowerCase().includes(group.toLowerCase())),
          group,
        ).toBe(false);
      expect(JSON.stringify(resources)).not.toMatch(/sandbox(Acs|Src)|\/sandbox\//i);
      expect(resources.HttpApiStage!.Properties.RouteSettings).toBeUndefined();
      const fallback = functionsOf().find((p) => p.FunctionName === 'click-to-pay-prod-fallback');
      expect(fallback.Environment.Variables.SANDBOX_ROUTES).toBe('absent');
      expect(readdirSync(packaged.packageDir).filter((file) => /sandbox/i.test(file))).toEqual([]);
    });

    it('has no sandbox table, and no role statement or function environment names it', () => {
      expect(ofType('AWS::DynamoDB::Table').map(([id]) => id)).not.toContain('SandboxTable');
      expect(ofType('AWS::DynamoDB::Table').length).toBe(5);
      expect(JSON.stringify(resources)).not.toMatch(/SandboxTable|click-to-pay-prod-sandbox/);
      for (const props of functionsOf()) expect(props.Environment?.Variables ?? {}, props.FunctionName).not.toHaveProperty('SANDBOX_TABLE');
      // The roles that reach it on a stage with the sandbox are here, without it.
      const roles = ofType('AWS::IAM::Role');
      for (const id of ['LambdaRolePayments', 'LambdaRolePaymentsDecrypt', 'LambdaRoleLifecycle']) {
        const role = roles.find(([roleId]) => roleId === id);
        expect(role, id).toBeDefined();
        expect(JSON.stringify(role![1]), id).not.toMatch(/SANDBOX_|Sandbox/);
      }
      expect(JSON.stringify(packaged.template.Outputs ?? {})).not.toContain('SandboxTable');
    });

    it('throttles the $default stage from the params', () => {
      expect(resources.HttpApiStage!.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
    });

    it('writes JSON access logs with the route and no path, query string, headers or authorizer data, kept 30 days', () => {
      const { AccessLogSettings } = resources.HttpApiStage!.Properties;
      expect(AccessLogSettings.DestinationArn).toEqual({ 'Fn::GetAtt': ['HttpApiLogGroup', 'Arn'] });
      const format = JSON.parse(AccessLogSettings.Format) as Record<string, string>;
      expect(format).toEqual(ACCESS_LOG_FIELDS);
      expect(format).toMatchObject({ requestId: '$context.requestId', routeKey: '$context.routeKey', status: '$context.status' });
      // The path is the caller's (a card-number-shaped id, whatever the $default route catches) and no logger redacts these lines.
      expect(Object.values(format).filter((v) => /\$context\.(path|resourcePath)/.test(String(v)))).toEqual([]);
      for (const variable of Object.values(format)) {
        expect(variable, variable).toMatch(/^\$context\.[A-Za-z.]+$/);
        expect(variable, variable).not.toMatch(/query|uri|header|authorizer|user|session|body/i);
      }
      expect(resources.HttpApiLogGroup).toEqual({
        Type: 'AWS::Logs::LogGroup',
        Properties: { LogGroupName: '/aws/http-api/click-to-pay-prod', RetentionInDays: 30 },
      });
    });

    it('ships no source map in any zip and runs no function with --enable-source-maps', () => {
      const zips = readdirSync(packaged.packageDir).filter((file) => file.endsWith('.zip'));
      expect(zips.length).toBe(functionsOf().length);
      for (const zip of zips) {
        const entries = execFileSync('unzip', ['-Z1', join(packaged.packageDir, zip)], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean);
        expect(
          entries.some((entry) => entry.endsWith('handler.mjs')),
          zip,
        ).toBe(true);
        expect(
          entries.filter((entry) => entry.endsWith('.map')),
          zip,
        ).toEqual([]);
      }
      for (const props of functionsOf()) {
        expect(props.Environment.Variables, props.FunctionName).not.toHaveProperty('NODE_OPTIONS');
      }
      expect(JSON.stringify(resources)).not.toContain('enable-source-maps');
    });

    it('passes the real values to the functions', () => {
      const env = functionsOf().find((p) => p.FunctionName === 'click-to-pay-prod-payClickToPay').Environment.Variables;
      expect(env.AUTH_ISSUER).toBe('https://idp.example.com/');
      expect(JSON.stringify(resources)).not.toContain('.invalid');
    });

    it('gives PAYLOAD_KEY_NETWORK_KIDS to the decrypting functions (4.3, 4.10) only, unchanged', () => {
      const withKids = functionsOf()
        .filter((p) => p.Environment.Variables.PAYLOAD_KEY_NETWORK_KIDS !== undefined)
        .map((p) => p.FunctionName as string)
        .sort();
      expect(withKids).toEqual(['click-to-pay-prod-complete3ds', 'click-to-pay-prod-payClickToPay']);
      const env = functionsOf().find((p) => p.FunctionName === 'click-to-pay-prod-payClickToPay').Environment.Variables;
      expect(env.PAYLOAD_KEY_NETWORK_KIDS).toBe(NETWORK_KIDS);
    });
  });
});
