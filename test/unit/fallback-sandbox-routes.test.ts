/**
 * The fallback's 404/405 table matches what the stage deploys: with SANDBOX_ROUTES=absent (a
 * stage without the sandbox, infra/serverless/functions.cjs) /sandbox/* is an unknown path,
 * 404 for every method; deployed (or unset), a wrong method on a sandbox path is a 405.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseFallbackConfig } from '../../lib/composition/config/fallback-config.js';
import { allowedMethods, routeEntries } from '../../lib/http/route-table.js';
import { invoke } from '../support/invoke.js';

async function fallbackWith(sandboxRoutes: string | undefined) {
  vi.resetModules();
  if (sandboxRoutes === undefined) delete process.env.SANDBOX_ROUTES;
  else vi.stubEnv('SANDBOX_ROUTES', sandboxRoutes);
  return (await import('../../functions/fallback/handler.js')).handler;
}

afterEach(() => {
  vi.unstubAllEnvs();
  delete process.env.SANDBOX_ROUTES;
});

describe('route table without the sandbox', () => {
  it('leaves out every /sandbox/ route and nothing else', () => {
    const all = routeEntries({ sandbox: true });
    const without = routeEntries({ sandbox: false });
    expect(allowedMethods('/sandbox/3ds/challenge', all)).toEqual(['POST']); // a creq is form-POSTed, never sent by GET
    expect(allowedMethods('/sandbox/src/init', all)).toEqual(['POST']);
    expect(allowedMethods('/sandbox/3ds/challenge', without)).toEqual([]);
    expect(allowedMethods('/sandbox/src/init', without)).toEqual([]);
    expect(allowedMethods('/config/platform/configs/payment-methods', without)).toEqual(['GET', 'PUT', 'POST']);
    expect(all.length - without.length).toBe(11); // 1 ACS + 10 SRC routes (8 SDK, 2 confirmations)
  });
});

describe('fallback handler and SANDBOX_ROUTES', () => {
  it('answers 404 on a sandbox path when the stage has no sandbox', async () => {
    const fallback = await fallbackWith('absent');
    for (const [method, path] of [
      ['DELETE', '/sandbox/3ds/challenge'],
      ['GET', '/sandbox/src/init'],
      ['PUT', '/sandbox/src/checkout'],
    ]) {
      const response = await invoke(fallback, { method, path });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.Allow).toBeUndefined();
    }
    expect((await invoke(fallback, { method: 'DELETE', path: '/config/platform/configs/payment-methods' })).status).toBe(405);
  });

  it('answers 405 with Allow on a sandbox path when the sandbox is deployed, or the variable unset', async () => {
    for (const value of ['deployed', undefined]) {
      const fallback = await fallbackWith(value);
      const response = await invoke(fallback, { method: 'DELETE', path: '/sandbox/3ds/challenge' });
      expect(response.status, String(value)).toBe(405);
      expect(response.headers.Allow).toBe('POST');
    }
  });

  it('refuses any other value at cold start, naming the variable', () => {
    expect(() => parseFallbackConfig({ SANDBOX_ROUTES: 'yes' })).toThrow(/SANDBOX_ROUTES/);
    expect(parseFallbackConfig({}).SANDBOX_ROUTES).toBe('deployed');
  });
});
