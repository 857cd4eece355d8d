import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tmpLeftovers } from '../deploy/package-template.js';
import { freePort, type RunningService, startService } from '../support/local-service.js';
import { ROOT, type RecipeSession, recipeSessions, type ShellRecipe } from '../support/markdown.js';

/**
 * Every ```sh block of the README and the guides runs as written (the few that deploy, install
 * or run the whole suite say so above their fence: test/unit/recipes.test.ts), against a real
 * `npm start` on a port and data directory of its own — the way a reader pastes them:
 * - one bash per file, its blocks in order, so what a block sets is there for the next; a guide
 *   that says its recipes run "in the shell of the README's walk-through" gets that shell: the
 *   README's blocks run first, in the same bash;
 * - `set -euo pipefail`: a failing command, a failing pipe or a variable nothing set stops it;
 * - PATH holds what every Debian system has (its Essential packages: coreutils, bash, sed,
 *   grep, …) plus node, npm, npx and curl, so a recipe needing uuidgen or jq fails;
 * - every HTTP exchange is recorded (curl on PATH is a wrapper keeping each answer's status):
 *   a request a recipe makes may not get a 4xx or 5xx, which curl -s would let pass.
 * A failure names the block (file:line), the line in the document, and the block's stderr.
 * `npm start` runs with PROCESSOR_FAKES=1, as docs/operating/local.md's last recipe asks.
 */
const sessions = recipeSessions();
const readme = sessions.find((session) => session.file === 'README.md')!;

let work: string;
let serviceTmp: string;
let shellTmp: string;
let port: number;
let hookPort: number;
let dataDir: string;
let bin: string;
let service: RunningService | undefined;

interface BlockResult {
  recipe: ShellRecipe;
  /** Run as the README's part of a guide's shell. */
  setup: boolean;
  done: boolean;
  stdout: string;
  stderr: string;
  exchanges: { status: number; request: string }[];
}

/** The binaries of Debian's Essential packages (dpkg knows them), else a plain POSIX set from PATH. */
function baseSystemTools(): string[] {
  const essential = spawnSync('dpkg-query', ['-W', '-f=${Package} ${Essential}\\n'], { encoding: 'utf8' });
  if (essential.status === 0) {
    const packages = essential.stdout
      .split('\n')
      .filter((line) => line.endsWith(' yes'))
      .map((line) => line.split(' ')[0]!);
    const files = spawnSync('dpkg-query', ['-L', ...packages], { encoding: 'utf8' }).stdout.split('\n');
    return files.filter((file) => /^\/(usr\/)?s?bin\/[^/]+$/.test(file) && existsSync(file));
  }
  const posix = [
    'sh',
    'bash',
    'cat',
    'sed',
    'grep',
    'mktemp',
    'rm',
    'sleep',
    'env',
    'mkdir',
    'ls',
    'head',
    'tail',
    'tr',
    'od',
    'cut',
    'sort',
    'wc',
    'date',
    'kill',
  ];
  return posix.map(which).filter((path): path is string => path !== undefined);
}

function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

/** PATH for the recipes: the base system, node, npm, npx, and a curl that keeps each answer's headers. */
function recipeBin(): string {
  const dir = join(work, 'bin');
  mkdirSync(dir);
  for (const tool of [...baseSystemTools(), ...['node', 'npm', 'npx'].map(which)]) {
    if (tool && !existsSync(join(dir, basename(tool)))) symlinkSync(tool, join(dir, basename(tool)));
  }
  const curl = which('curl');
  if (!curl) throw new Error('curl is not installed: the recipes use it (apt-get install curl)');
  // RECIPE_EXCHANGES: the block's own directory, set by the session between blocks.
  writeFileSync(join(dir, 'curl'), `#!/bin/sh\nprintf '%s\\n' "$*" > "$RECIPE_EXCHANGES/$$.request"\nexec ${curl} -D "$RECIPE_EXCHANGES/$$.headers" "$@"\n`);
  chmodSync(join(dir, 'curl'), 0o755);
  return dir;
}

/** The status of the last response of each request (-D keeps every response of one, redirects included). */
function exchangesIn(dir: string): { status: number; request: string }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.request'))
    .map((file) => {
      const headers = join(dir, file.replace(/\.request$/, '.headers'));
      const statuses = existsSync(headers) ? [...readFileSync(headers, 'utf8').matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1])) : [];
      // The demo tokens are local and short-lived, but a bearer token has no place in a report.
      const request = readFileSync(join(dir, file), 'utf8')
        .trim()
        .replace(/Bearer \S+/g, 'Bearer …');
      return { status: statuses.at(-1) ?? 0, request };
    });
}

const untracked = () =>
  new Set(
    spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: ROOT, encoding: 'utf8' })
      .stdout.split('\n')
      .filter((line) => line.startsWith('??')),
  );

/** Runs a file's blocks (after the README's, for a guide that continues its shell) in one bash. */
async function runSession(session: RecipeSession): Promise<{ blocks: BlockResult[]; created: string[]; exit: number | null }> {
  const dir = join(work, 'sessions', session.file.replace(/[^\w.-]+/g, '_'));
  mkdirSync(dir, { recursive: true });
  const planned = [
    ...(session.afterReadme ? readme.recipes.map((recipe) => ({ recipe, setup: true })) : []),
    ...session.recipes.map((recipe) => ({ recipe, setup: false })),
  ];
  const script = ['set -euo pipefail', `trap 'echo "recipe failed at line $LINENO of its block: $BASH_COMMAND (exit $?)" >&2' ERR`];
  planned.forEach(({ recipe }, i) => {
    writeFileSync(join(dir, `${i}.sh`), `${recipe.code}\n`);
    mkdirSync(join(dir, `${i}.http`));
    script.push(
      `export RECIPE_EXCHANGES='${join(dir, `${i}.http`)}'`,
      `. '${join(dir, `${i}.sh`)}' > '${join(dir, `${i}.out`)}' 2> '${join(dir, `${i}.err`)}'`,
      `: > '${join(dir, `${i}.done`)}'`,
    );
  });
  const before = untracked();
  const exit = await new Promise<number | null>((resolve) => {
    const child = spawn('bash', ['-c', script.join('\n')], {
      cwd: ROOT,
      // A reader's shell: none of the test stack's variables; npm start's PORT and DATA_DIR, as
      // the README asks a reader with another port or data directory to export.
      env: { PATH: bin, HOME: process.env.HOME ?? work, PORT: String(port), DATA_DIR: dataDir, TMPDIR: shellTmp, HOOK_PORT: String(hookPort) },
      stdio: 'ignore',
      detached: true,
    });
    // Generous: on a shared 2-core machine a guide's session (the README's walk-through first) can
    // take minutes; this only ends a session that hangs.
    const timer = setTimeout(() => killGroup(child.pid), 240_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      // Whatever a failed block left running in the background (a webhook receiver) goes too.
      killGroup(child.pid);
      resolve(code);
    });
  });
  const read = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '');
  const blocks = planned.map(({ recipe, setup }, i) => ({
    recipe,
    setup,
    done: existsSync(join(dir, `${i}.done`)),
    stdout: read(`${i}.out`),
    // bash names the block's temporary file and its line: name the document's line instead.
    stderr: read(`${i}.err`)
      .split(`${join(dir, `${i}.sh`)}: line `)
      .map((part, n) => (n === 0 ? part : part.replace(/^(\d+)/, (line) => `${recipe.file}:${recipe.line + Number(line)}`)))
      .join('')
      .replace(/line (\d+) of its block/g, (_, line: string) => `${recipe.file}:${recipe.line + Number(line)}`),
    exchanges: exchangesIn(join(dir, `${i}.http`)),
  }));
  const created = [...untracked()].filter((line) => !before.has(line));
  return { blocks, created, exit };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

const where = (block: BlockResult) => `${block.recipe.file}:${block.recipe.line}${block.setup ? ' (the README walk-through this guide continues)' : ''}`;

/** What each file's recipes say they do, in their comments: seen in their output. */
const OUTCOMES: Record<string, RegExp[]> = {
  'README.md': [/"state":"AUTHORISED"/, /^AWAIT_3DS$/m, /"eci":"05"/],
  'docs/integrating/api.md': [/api\.d\.ts/],
  'docs/integrating/captures-refunds.md': [/"state":"PARTIALLY_CAPTURED"/, /"state":"CAPTURED"/, /"state":"PARTIALLY_REFUNDED"/],
  'docs/integrating/hosted-page.md': [
    /"redirectOrigins":\["https:\/\/shop\.example\.com","https:\/\/admin\.example\.com"\]/,
    /"checkoutUrl":"http:\/\/localhost:\d+\/checkout\?session=hs_/,
  ],
  'docs/integrating/payment-links.md': [/^http:\/\/localhost:\d+\/pay\/pl_[\w-]{22}$/m, /"state":"CANCELLED"/],
  'docs/integrating/webhooks.md': [/^payment\.authorised [0-9a-f-]{36}$/m, /"type":"payment\.authorised"/],
  'docs/operating/local.md': [/"state":"AUTHORISED"/],
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ctp-recipes-'));
  serviceTmp = join(work, 'service-tmp');
  shellTmp = join(work, 'shell-tmp');
  dataDir = join(work, 'data');
  for (const dir of [serviceTmp, shellTmp]) mkdirSync(dir);
  bin = recipeBin();
  port = await freePort();
  hookPort = await freePort();
  service = await startService({ PORT: String(port), DATA_DIR: dataDir, TMPDIR: serviceTmp, PROCESSOR_FAKES: '1' });
}, 200_000);

afterEach((context) => {
  if (context.task.result?.state === 'fail') console.error(`--- npm start output (tail) ---\n${service?.output().slice(-4000)}`);
});

afterAll(async () => {
  await service?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('the README’s and the guides’ shell recipes, as written, against npm start', () => {
  it('every file with recipes is expected to show what its recipes say they do', () => {
    expect(sessions.map((session) => session.file).sort()).toEqual(Object.keys(OUTCOMES).sort());
  });

  it.each(sessions.map((session) => [session.file, session] as const))(
    '%s: its blocks run in one bash to the end, every request succeeds, nothing is written into the repository',
    async (_file, session) => {
      const { blocks, created, exit } = await runSession(session);
      const failed = blocks.find((block) => !block.done);
      if (failed) expect.fail(`${where(failed)} failed (bash exit ${exit}):\n${failed.stderr || '(no stderr)'}\n--- its stdout ---\n${failed.stdout}`);
      expect(exit).toBe(0);
      for (const block of blocks) {
        expect(block.stderr, `${where(block)}: stderr`).not.toMatch(/command not found|No such file|unbound variable/);
        const refused = block.exchanges.filter((exchange) => exchange.status === 0 || exchange.status >= 400);
        expect(refused, `${where(block)}: requests answered with an error`).toEqual([]);
      }
      const stdout = blocks
        .filter((block) => !block.setup)
        .map((block) => block.stdout)
        .join('\n');
      for (const outcome of OUTCOMES[session.file] ?? []) expect(stdout, `${session.file}: ${outcome}`).toMatch(outcome);
      expect(created, 'files the recipes created in the repository').toEqual([]);
    },
    270_000,
  );

  it('npm start, stopped, leaves nothing in its TMPDIR (tools’ reusable caches aside)', async () => {
    await service!.stop();
    service = undefined;
    expect(tmpLeftovers(serviceTmp)).toEqual([]);
  });
});
