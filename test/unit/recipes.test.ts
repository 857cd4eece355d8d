import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { markdownFiles, NOT_RUN_MARKER, readMarkdown, recipeSessions, shellRecipes } from '../support/markdown.js';

/**
 * The shell recipes of the README and the guides, without a service (test/smoke/recipes.test.ts
 * runs them against `npm start`): a block runs unless it deploys to AWS, installs system
 * packages or runs the whole test suite — and then says so right above its fence — every block
 * is valid bash, none needs a tool Debian does not install, and each file's recipes use only
 * variables set before them (in the file, or in the README's walk-through a guide continues).
 */
const recipes = shellRecipes();
const sessions = recipeSessions();

/** What a block may not run for: the three reasons, and nothing else. */
const NOT_RUN_REASON = /^it (deploys to AWS|installs \w+|runs the whole test suite)\b/;

/** A shell line as the shell expands it: single-quoted text and comments blanked out. */
const expanded = (line: string) => line.replace(/'[^']*'/g, "''").replace(/(^|\s)#.*$/, '');
/** The variables a reader's shell may already have: npm start's port and data directory, and a port to listen on. */
const READER_ENVIRONMENT = ['PORT', 'DATA_DIR', 'HOOK_PORT'];

/** The variables a run of blocks uses before anything set them (a quoted heredoc is not expanded). */
function unsetUses(code: string, known: Set<string>): string[] {
  const unset: string[] = [];
  let heredoc: string | undefined;
  for (const line of code.split('\n')) {
    if (heredoc !== undefined) {
      if (line === heredoc) heredoc = undefined;
      continue;
    }
    const text = expanded(line);
    for (const [, name] of text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) if (!known.has(name!)) unset.push(`${name} in: ${line}`);
    for (const [, name] of text.matchAll(/(?:^|[\s;(])(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=/g)) known.add(name!);
    const quotedHeredoc = /<<-?'(\w+)'/.exec(line);
    if (quotedHeredoc) heredoc = quotedHeredoc[1];
  }
  return unset;
}

describe('shell recipes', () => {
  it('a block not run says why right above its fence, and the reason is one of three: it deploys, installs, or runs the whole suite', () => {
    const notRun = recipes.filter((recipe) => recipe.notRun !== undefined);
    for (const recipe of notRun) expect(recipe.notRun, `${recipe.file}:${recipe.line}`).toMatch(NOT_RUN_REASON);
    expect(notRun.length).toBeLessThanOrEqual(6);
    expect(recipes.length - notRun.length).toBeGreaterThanOrEqual(10);
  });

  it('a not-run marker sits only right above a ```sh fence (a stray one would mark nothing)', () => {
    for (const file of markdownFiles()) {
      const lines = readMarkdown(file).split('\n');
      lines.forEach((line, index) => {
        if (line.includes('recipe not run')) {
          expect(line, `${file}:${index + 1}`).toMatch(NOT_RUN_MARKER);
          expect(lines[index + 1], `${file}:${index + 1}`).toBe('```sh');
        }
      });
    }
  });

  it('shell code is fenced as ```sh at the start of a line (bash, shell, console or an indented fence would not run)', () => {
    for (const file of markdownFiles().filter((f) => f !== 'docs/SPEC.md')) {
      readMarkdown(file)
        .split('\n')
        .forEach((line, index) => expect(line, `${file}:${index + 1}`).not.toMatch(/^\s*```\s*(bash|shell|console|zsh|sh\s+\S)|^\s+```\s*sh\b/));
    }
  });

  it.each(recipes.map((r) => [`${r.file}:${r.line}`, r] as const))('%s is valid bash (bash -n)', (_where, recipe) => {
    const result = spawnSync('bash', ['-n'], { input: recipe.code, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('no recipe needs uuidgen or jq, which Debian does not install (Idempotency-Keys come from /dev/urandom or node)', () => {
    for (const recipe of recipes) expect(recipe.code, `${recipe.file}:${recipe.line}`).not.toMatch(/\b(uuidgen|jq|python3?|wget)\b/);
  });

  it('the README runs first, and the guides that continue its walk-through say so before their first block', () => {
    expect(sessions[0]?.file).toBe('README.md');
    const continuing = sessions.filter((session) => session.afterReadme).map((session) => session.file);
    expect(continuing).toEqual(
      expect.arrayContaining([
        'docs/integrating/captures-refunds.md',
        'docs/integrating/hosted-page.md',
        'docs/integrating/payment-links.md',
        'docs/integrating/webhooks.md',
      ]),
    );
  });

  it('each file’s recipes use only variables set before them: in the file, or in the README walk-through a guide continues', () => {
    const readmeKnown = new Set(READER_ENVIRONMENT);
    const readme = sessions.find((session) => session.file === 'README.md')!;
    expect(unsetUses(readme.recipes.map((r) => r.code).join('\n'), readmeKnown)).toEqual([]);
    for (const session of sessions.filter((s) => s.file !== 'README.md')) {
      const known = new Set(session.afterReadme ? readmeKnown : READER_ENVIRONMENT);
      expect(unsetUses(session.recipes.map((r) => r.code).join('\n'), known), session.file).toEqual([]);
    }
  });
});
