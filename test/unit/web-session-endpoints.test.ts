import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * SPEC §1: the hosted page holds a session token, which 4.4 Direct Wallet refuses. The page
 * must not even try: its sources name only the service paths a session token may use.
 */
async function sources(dir: string): Promise<{ file: string; text: string }[]> {
  const names = (await readdir(dir, { recursive: true })).filter((name) => /\.(ts|tsx)$/.test(name));
  return Promise.all(names.map(async (name) => ({ file: name, text: await readFile(join(dir, name), 'utf8') })));
}

describe('hosted page (web/src) and session tokens', () => {
  it('never calls 4.4 Direct Wallet or any lifecycle/configuration write', async () => {
    const files = await sources(join(process.cwd(), 'web', 'src'));
    expect(files.length).toBeGreaterThan(5);
    for (const { file, text } of files) {
      expect(text, file).not.toMatch(/click-to-pay\/direct|\/direct['`"]/);
      expect(text, file).not.toMatch(/hosted-sessions|payment-methods|\/captures|\/reversals|\/refunds|payment-links|configs\/webhooks/);
    }
  });
});
