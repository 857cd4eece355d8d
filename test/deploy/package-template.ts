/**
 * `osls package` of a temporary copy of the repository (node_modules symlinked, the web page
 * built in the copy), offline: no AWS credentials, nothing phoning home, and a TMPDIR of its
 * own, so that what packaging leaves there is seen. Used by every test on the generated
 * template (default params, or others).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWeb } from '../../infra/local/build-web.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SKIP_DIRS = new Set(['node_modules', '.git', '.data', '.esbuild', '.serverless', 'test-results', 'coverage']);

// Loose CloudFormation shapes: the template is data.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
export interface PackagedTemplate {
  template: { Resources: Record<string, { Type: string; Properties: Json; DependsOn?: string | string[] }>; Outputs?: Record<string, Json> };
  /** Where the function zips were written. */
  packageDir: string;
  /** The packaged copy of the repository (its web/dist is what the checkoutPage zip ships). */
  serviceDir: string;
  /** What osls left in its TMPDIR (an empty directory of its own) besides tools' reusable caches. */
  tmpLeftovers: string[];
  cleanup: () => void;
}

function packagingEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('AWS_') && !key.startsWith('SLS_') && key !== 'NODE_OPTIONS') env[key] = value;
  }
  return {
    ...env,
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
    SLS_DEPRECATION_DISABLE: '*',
    SLS_INTERACTIVE_SETUP_ENABLE: '0',
    CI: '1',
    FORCE_COLOR: '0',
  };
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npx', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`osls package timed out after ${timeoutMs} ms\n${output}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}

/** A copy of the repository to run osls in (node_modules symlinked, the web page built), with a TMPDIR of its own. */
export interface ServiceCopy {
  /** The copy: osls runs here. */
  dir: string;
  /** The TMPDIR osls gets: empty before, and must be empty after (tools' reusable caches aside). */
  tmpDir: string;
  /** The parent of both (and of a package directory). */
  root: string;
  cleanup: () => void;
}

/** `parent`: where the copy's directory is made (the system temp directory unless given). */
export async function serviceCopy(parent = tmpdir()): Promise<ServiceCopy> {
  const root = mkdtempSync(join(parent, 'ctp-sls-'));
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  try {
    const dir = join(root, 'service');
    const tmpDir = join(root, 'tmp');
    mkdirSync(tmpDir);
    cpSync(ROOT, dir, {
      recursive: true,
      filter: (source) => {
        const rel = relative(ROOT, source);
        return rel === '' || !SKIP_DIRS.has(rel.split(/[\\/]/)[0] ?? '');
      },
    });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await buildWeb({ rootDir: dir, log: () => {} });
    return { dir, tmpDir, root, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** `npx --no osls …` in the copy, offline, with its own TMPDIR; `env` adds or replaces variables. */
export function runOsls(copy: ServiceCopy, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 170_000) {
  return run(['--no', 'osls', ...args], copy.dir, { ...packagingEnv(), TMPDIR: copy.tmpDir, ...env }, timeoutMs);
}

/** Tools' own reusable caches: Node's compile cache, tsx's transform cache (tsx-<uid>). */
const REUSABLE_CACHES = /^(node-compile-cache|tsx-\d+)$/;

/** What is left in a TMPDIR besides tools' reusable caches. */
export function tmpLeftovers(tmpDir: string): string[] {
  return readdirSync(tmpDir).filter((name) => !REUSABLE_CACHES.test(name));
}

export async function packageTemplate(extraArgs: string[] = [], stage = 'test', region = 'eu-west-1', parent?: string): Promise<PackagedTemplate> {
  const copy = await serviceCopy(parent);
  try {
    const packageDir = join(copy.root, 'package');
    const { code, output } = await runOsls(copy, ['package', '--stage', stage, '--region', region, '--package', packageDir, ...extraArgs]);
    if (code !== 0) throw new Error(`osls package exited with ${code}:\n${output}`);
    const template = JSON.parse(readFileSync(join(packageDir, 'cloudformation-template-update-stack.json'), 'utf8'));
    return { template, packageDir, serviceDir: copy.dir, tmpLeftovers: tmpLeftovers(copy.tmpDir), cleanup: copy.cleanup };
  } catch (error) {
    copy.cleanup();
    throw error;
  }
}

/** Packaging needs every handler and the web entry (as cloudformation.test.ts checks). */
packageTemplate.possible = (): boolean => existsSync(join(ROOT, 'web/src/main.tsx'));
