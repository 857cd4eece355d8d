import { describe, expect, it } from 'vitest';
import { run } from '../support/local-service.js';

/**
 * Every `npm run` CLI answers `--help` with its usage on stdout (exit 0) and a bad argument with
 * one line on stderr (exit 2), never a stack trace; and none starts any work on either.
 * Run with tsx directly (the CLIs' own contract), and the two stdout-printing ones through npm
 * too (`npm run -s`: no banner on stdout; npm's own errors still shown).
 */
const CLIS = [
  { script: 'token', file: 'infra/local/token-cli.ts', usage: 'Usage: npm run -s token' },
  { script: 'sandbox:checkout', file: 'infra/local/sandbox-checkout-cli.ts', usage: 'Usage: npm run -s sandbox:checkout' },
  { script: 'start', file: 'infra/local/start.ts', usage: 'Usage: npm start' },
  { script: 'build:web', file: 'infra/local/build-web.ts', usage: 'Usage: npm run build:web' },
  { script: 'openapi', file: 'infra/openapi/generate.ts', usage: 'Usage: npm run openapi' },
  { script: 'bench', file: 'bench/run.ts', usage: 'npm run bench' },
  { script: 'load', file: 'bench/load.ts', usage: 'npm run load' },
  { script: 'bench:coldstart', file: 'bench/coldstart.ts', usage: 'npm run bench:coldstart' },
];
const tsx = (file: string, ...args: string[]) => run(process.execPath, ['--import', 'tsx', file, ...args]);
const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at /m);

describe.each(CLIS)('$script', ({ file, usage }) => {
  it('--help and -h print the usage on stdout and exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const result = await tsx(file, flag);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trimStart().startsWith(usage.startsWith('Usage') ? usage : 'Usage:'), result.stdout).toBe(true);
      expect(result.stdout).toContain(usage);
      expect(result.stderr).toBe('');
    }
  }, 60_000);

  it('an unknown option or a stray argument is one line on stderr and exit 2', async () => {
    for (const [args, message] of [
      [['--no-such-option'], "Unknown option '--no-such-option'"],
      [['stray'], "Unexpected argument 'stray'"],
    ] as const) {
      const result = await tsx(file, ...args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      noStackTrace(result.stderr);
    }
  }, 60_000);
});

describe('the token and sandbox:checkout option checks', () => {
  it('an option without its value is one line and exit 2', async () => {
    const result = await tsx('infra/local/token-cli.ts', '--realm');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("token: Option '--realm <value>' argument missing (see --help)\n");
  }, 30_000);

  it('a bad value names the option', async () => {
    const result = await tsx(
      'infra/local/sandbox-checkout-cli.ts',
      '--order',
      'o-1',
      '--outlet',
      'demo-outlet',
      '--scheme',
      'amex',
      '--api',
      'http://127.0.0.1:9',
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('sandbox:checkout: --scheme must be visa or mastercard (see --help)\n');
  }, 30_000);
});

describe('through npm', () => {
  it('`npm run -s token -- --help` prints exactly the usage on stdout: npm’s banner is not there', async () => {
    const direct = await tsx('infra/local/token-cli.ts', '--help');
    const viaNpm = await run('npm', ['run', '-s', 'token', '--', '--help']);
    expect(viaNpm.code).toBe(0);
    expect(viaNpm.stdout).toBe(direct.stdout);
  }, 60_000);

  it('npm’s own errors are shown: a mistyped script says so on stderr', async () => {
    const result = await run('npm', ['run', 'tset']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Missing script: "tset"');
    // npm's usual text, no JSON error object on stdout (no project-wide json=true).
    expect(result.stdout).toBe('');
  }, 60_000);

  it('sandbox:checkout redirected without -s refuses with one line before doing any work', async () => {
    const result = await run('npm', ['run', 'sandbox:checkout', '--', '--order', 'o-1', '--outlet', 'demo-outlet', '--api', 'http://127.0.0.1:9']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'sandbox:checkout: npm printed its "> sandbox:checkout" banner on stdout ahead of the output; run `npm run -s sandbox:checkout -- …` to capture or redirect it',
    ]);
  }, 60_000);
});
