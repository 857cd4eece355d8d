// @vitest-environment node
/**
 * CORS with the `corsAllowedOrigins` param: `osls package` (offline) with a list of origins gives
 * exactly those origins, never `*` or `null`; the default (no param) is checked in
 * cloudformation.test.ts. Bad values fail the packaging (unit checks of the param parser at the end).
 * The template is the run's shared production package (production-package.ts), which sets the param.
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageTemplate } from './package-template.js';
import { CORS_ORIGINS_PARAM, productionPackage, type SharedPackage } from './production-package.js';

const require = createRequire(import.meta.url);
const { parseAllowedOrigins, corsConfig } = require('../../infra/serverless/http-api.cjs') as {
  parseAllowedOrigins: (value: unknown) => string[];
  corsConfig: (origins: string[]) => false | { allowedOrigins: string[] };
};

describe.skipIf(!packageTemplate.possible())('osls package --param corsAllowedOrigins=…', () => {
  let packaged: SharedPackage;
  beforeAll(async () => {
    packaged = await productionPackage();
  }, 420_000);

  it('allows exactly the listed origins, with the headers a browser client needs', () => {
    expect(CORS_ORIGINS_PARAM).toBe('https://shop.example.com, https://admin.example.com:8443,https://shop.example.com');
    const apis = Object.values(packaged.template.Resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Api');
    expect(apis).toHaveLength(1);
    const cors = apis[0]!.Properties.CorsConfiguration;
    expect(cors.AllowOrigins).toEqual(['https://shop.example.com', 'https://admin.example.com:8443']);
    expect(cors.AllowHeaders).toEqual(expect.arrayContaining(['Authorization', 'Content-Type']));
    expect(cors.AllowMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'OPTIONS']));
    expect(cors.AllowCredentials).toBeUndefined();
    expect(cors.MaxAge).toBe(600);
  });
});

describe('corsAllowedOrigins parsing', () => {
  it('is empty (no CORS configuration) when unset or blank', () => {
    for (const value of [undefined, null, '', ' ', ', ,']) {
      expect(parseAllowedOrigins(value)).toEqual([]);
      expect(corsConfig(parseAllowedOrigins(value))).toBe(false);
    }
  });

  it('refuses *, null, paths, trailing slashes, plain http and non-URLs', () => {
    for (const value of [
      '*',
      'null',
      'NULL',
      'https://shop.example.com/',
      'https://shop.example.com/pay',
      'http://shop.example.com',
      'shop.example.com',
      'https://a.example.com,*',
      'file:///etc',
    ]) {
      expect(() => parseAllowedOrigins(value), value).toThrow(/corsAllowedOrigins item/);
    }
  });

  it('accepts https origins and http on a loopback host', () => {
    expect(parseAllowedOrigins('https://shop.example.com,http://localhost:5173,http://127.0.0.1:8080')).toEqual([
      'https://shop.example.com',
      'http://localhost:5173',
      'http://127.0.0.1:8080',
    ]);
  });
});
