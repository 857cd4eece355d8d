import { describe, expect, it, vi } from 'vitest';
import { createSandboxSrcHandler, SRC_OPERATIONS } from '../../lib/adapters/sandbox/src/http.js';
import { DPA, src } from './src-client.js';

/**
 * Without the sandbox network's signing key (every non-sandbox deployment) the sandbox SRC
 * does not exist: every route is a 404 problem, as for any unknown path.
 */
describe('sandbox SRC disabled', () => {
  it('answers 404 problem details on every route', async () => {
    const disabled = createSandboxSrcHandler(undefined);
    const paths = Object.keys(SRC_OPERATIONS).map((path) => path.replace('/sandbox/src', ''));
    expect(paths).toHaveLength(10); // the eight SRC operations and the two confirmation routes;
    for (const path of paths) {
      const response = await src(path, { ...DPA, sessionId: 'src_x' }, disabled);
      expect(response.status, path).toBe(404);
      expect(response.headers['Content-Type']).toBe('application/problem+json');
      expect(response.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
  });

  it('is what the composition builds when SANDBOX_NETWORK_SIGNING_JWKS_URL is empty or unset', async () => {
    const configured = process.env.SANDBOX_NETWORK_SIGNING_JWKS_URL;
    try {
      for (const value of ['', undefined]) {
        if (value === undefined) delete process.env.SANDBOX_NETWORK_SIGNING_JWKS_URL;
        else process.env.SANDBOX_NETWORK_SIGNING_JWKS_URL = value;
        vi.resetModules();
        const { sandboxSrcNetwork } = await import('../../lib/composition/sandbox-src.js');
        expect(sandboxSrcNetwork).toBeUndefined();
      }
      process.env.SANDBOX_NETWORK_SIGNING_JWKS_URL = configured;
      vi.resetModules();
      expect((await import('../../lib/composition/sandbox-src.js')).sandboxSrcNetwork).toBeDefined();
    } finally {
      process.env.SANDBOX_NETWORK_SIGNING_JWKS_URL = configured;
    }
  });

  it('refuses a configured value that is not a file:/http(s): URL', async () => {
    const configured = process.env.SANDBOX_NETWORK_SIGNING_JWKS_URL;
    try {
      process.env.SANDBOX_NETWORK_SIGNING_JWKS_URL = '/etc/keys.json';
      vi.resetModules();
      await expect(import('../../lib/composition/config/sandbox-config.js')).rejects.toThrow(/SANDBOX_NETWORK_SIGNING_JWKS_URL/);
    } finally {
      process.env.SANDBOX_NETWORK_SIGNING_JWKS_URL = configured;
    }
  });
});
