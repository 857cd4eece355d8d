import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markdownFiles, slug } from '../support/markdown.js';

/**
 * The README is read by a merchant developer in their first hour: its links to the contract
 * resolve inside the repository, its curl examples follow `$BASE`, and the walk-through sets
 * every variable it uses and writes no file outside its temporary directory.
 */
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const spec = read('docs/SPEC.md');

const codeBlocks = (markdown: string) => [...markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map(([, code]) => code!);
/** A shell line as the shell expands it: single-quoted text and comments blanked out. */
const expanded = (line: string) => line.replace(/'[^']*'/g, "''").replace(/(^|\s)#.*$/, '');
const section = (title: string) => {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, title).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
};

describe('README', () => {
  it('ships the contract it cites: docs/SPEC.md, with a note of where it comes from', () => {
    expect(readme).not.toContain('../shared/');
    expect(spec.split('\n')[0]).toMatch(/^> Copied verbatim from the project's shared contract/);
    expect(spec).toContain('## 2. Errors');
  });

  const shared = new URL('../../../shared/SPEC.md', import.meta.url);
  it.skipIf(!existsSync(shared))('docs/SPEC.md is still the shared contract, word for word (where the shared copy is at hand)', () => {
    expect(spec.split('\n').slice(2).join('\n')).toBe(readFileSync(shared, 'utf8'));
  });

  it('links SPEC sections to headings that exist in docs/SPEC.md (the README and every guide in docs/)', () => {
    const anchors = new Set([...spec.matchAll(/^#{1,3} (.+)$/gm)].map(([, heading]) => slug(heading!)));
    const links = markdownFiles().flatMap((file) => [...read(file).matchAll(/\]\((?:docs\/|(?:\.\.\/)*)SPEC\.md#([^)]+)\)/g)].map(([, anchor]) => anchor!));
    expect(links.length).toBeGreaterThan(20);
    for (const anchor of links) expect(anchors, anchor).toContain(anchor);
  });

  it('has no curl example hard-coding localhost:3000, in the README or a guide (they use $BASE)', () => {
    for (const code of markdownFiles().flatMap((file) => codeBlocks(read(file)))) {
      for (const line of code.split('\n').filter((l) => /\bcurl\b/.test(l))) expect(line).not.toMatch(/localhost:3000/);
    }
  });

  it('walk-through: every variable it uses is set before, in the same section (the 3DS recipe included)', () => {
    const code = codeBlocks(section('Walk-through: pay an order with curl')).join('\n');
    const known = new Set(['PORT']);
    for (const line of code.split('\n')) {
      const text = expanded(line);
      for (const [, name] of text.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)) expect(known, `${name} in: ${line}`).toContain(name);
      for (const [, name] of text.matchAll(/(?:^|[\s;(])(?:export\s+)?([A-Z_][A-Z0-9_]*)=/g)) known.add(name!);
    }
    for (const name of ['BASE', 'OUTLET', 'TENANT_TOKEN', 'ORDER', 'PAYMENT', 'P', 'ACS_URL', 'CREQ', 'CRES', 'WORK']) expect(known).toContain(name);
    expect(code).toContain('BASE=http://localhost:${PORT:-3000}');
  });

  it('walk-through: files go to $WORK (a temporary directory), never into the repository', () => {
    const raw = codeBlocks(section('Walk-through: pay an order with curl')).join('\n');
    expect(raw).toMatch(/WORK=\$\(mktemp -d\)/);
    const code = raw.split('\n').map(expanded).join('\n');
    const redirects = [...code.matchAll(/(?<![0-9&])>\s*("?[^\s&]+)/g)].map(([, target]) => target);
    expect(redirects.length).toBeGreaterThanOrEqual(2);
    for (const target of redirects) expect(target, `redirect to ${target}`).toMatch(/^"\$WORK\//);
    for (const [, file] of code.matchAll(/--data @("?[^\s]+)/g)) expect(file).toMatch(/^"\$WORK\//);
  });

  it('warns that sandbox amounts ending in 99 wait 10 s', () => {
    expect(section('Walk-through: pay an order with curl')).toMatch(/Amounts ending in `99` wait 10 seconds/);
  });
});
