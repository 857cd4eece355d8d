import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The repository's tracked files (paths from the root), as git lists them. */
export function tracked(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
}
