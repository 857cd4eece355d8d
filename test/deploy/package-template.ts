/**
 * `osls package` of a temporary copy of the repository (node_modules symlinked, the web page
 * built in the copy), offline: no AWS credentials, nothing phoning home. Used by every test
 * on the generated template (default params, or others).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
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

function run(args: string[], cwd: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npx', args, { cwd, env: packagingEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
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

export async function packageTemplate(extraArgs: string[] = [], stage = 'test', region = 'eu-west-1'): Promise<PackagedTemplate> {
  const sandbox = mkdtempSync(join(tmpdir(), 'ctp-sls-'));
  const cleanup = () => rmSync(sandbox, { recursive: true, force: true });
  try {
    const service = join(sandbox, 'service');
    const packageDir = join(sandbox, 'package');
    cpSync(ROOT, service, {
      recursive: true,
      filter: (source) => {
        const rel = relative(ROOT, source);
        return rel === '' || !SKIP_DIRS.has(rel.split(/[\\/]/)[0] ?? '');
      },
    });
    symlinkSync(join(ROOT, 'node_modules'), join(service, 'node_modules'), 'dir');
    await buildWeb({ rootDir: service, log: () => {} });
    const args = ['--no', 'osls', 'package', '--stage', stage, '--region', region, '--package', packageDir, ...extraArgs];
    const { code, output } = await run(args, service, 170_000);
    if (code !== 0) throw new Error(`osls package exited with ${code}:\n${output}`);
    const template = JSON.parse(readFileSync(join(packageDir, 'cloudformation-template-update-stack.json'), 'utf8'));
    return { template, packageDir, serviceDir: service, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** Packaging needs every handler and the web entry (as cloudformation.test.ts checks). */
packageTemplate.possible = (): boolean => existsSync(join(ROOT, 'web/src/main.tsx'));
