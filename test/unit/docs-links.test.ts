import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingAnchors, linkTargets, markdownFiles, readMarkdown, ROOT } from '../support/markdown.js';

/**
 * The README fits on a few screens and sends its reader to the guides in docs/; the guides send
 * readers to each other. A link that lands nowhere, or on a heading that was renamed, is a
 * dead end for the reader, so every relative link and every #anchor is checked here.
 */
const files = markdownFiles();
const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** The repository path a relative link from `from` points at ('' when it points at `from` itself). */
const resolveTarget = (from: string, target: string) => {
  const path = target.split('#')[0]!;
  return path === '' ? from : normalize(join(dirname(from), decodeURIComponent(path)));
};

describe('README and docs/ links', () => {
  it('the README fits on a few screens (at most 250 lines)', () => {
    expect(readMarkdown('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('there is something to check: the README links to the guides, the guides to each other', () => {
    const relativeLinks = files.flatMap((file) => linkTargets(readMarkdown(file)).filter(({ target }) => !isExternal(target)));
    expect(relativeLinks.length).toBeGreaterThan(100);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/decisions.md', 'docs/sandbox.md', 'docs/benchmarks.md']));
  });

  it.each(files)('%s: every relative link names a file of the repository', (file) => {
    for (const { target, line } of linkTargets(readMarkdown(file))) {
      if (isExternal(target)) continue;
      const path = resolveTarget(file, target);
      expect(path.startsWith('..'), `${file}:${line} → ${target} leaves the repository`).toBe(false);
      expect(existsSync(join(ROOT, path)), `${file}:${line} → ${target} (${path})`).toBe(true);
    }
  });

  it.each(files)('%s: every #anchor names a heading of the file it points at', (file) => {
    for (const { target, line } of linkTargets(readMarkdown(file))) {
      if (isExternal(target) || !target.includes('#')) continue;
      const path = resolveTarget(file, target);
      const anchor = decodeURIComponent(target.slice(target.indexOf('#') + 1));
      if (!path.endsWith('.md') || !existsSync(join(ROOT, path)) || statSync(join(ROOT, path)).isDirectory()) continue;
      expect(headingAnchors(readMarkdown(path)), `${file}:${line} → ${target}`).toContain(anchor);
    }
  });

  it('docs/README.md lists every guide in docs/', () => {
    const listed = new Set(linkTargets(readMarkdown('docs/README.md')).map(({ target }) => resolveTarget('docs/README.md', target)));
    for (const file of files.filter((f) => f.startsWith('docs/') && f !== 'docs/README.md')) expect(listed, file).toContain(file);
    expect(listed).toContain('docs/openapi.json');
  });

  it('the README links to the guide index and to every guide of docs/integrating and docs/operating', () => {
    const linked = new Set(linkTargets(readMarkdown('README.md')).map(({ target }) => resolveTarget('README.md', target)));
    expect(linked).toContain('docs/README.md');
    for (const file of files.filter((f) => /^docs\/(integrating|operating)\//.test(f))) expect(linked, file).toContain(file);
  });

  it('resolves links as GitHub does (a self-check of this test)', () => {
    expect(resolveTarget('docs/integrating/api.md', '../SPEC.md#2-errors')).toBe('docs/SPEC.md');
    expect(resolveTarget('docs/sandbox.md', '#sandbox-test-values')).toBe('docs/sandbox.md');
    expect(relative(ROOT, join(ROOT, resolveTarget('README.md', 'docs/README.md')))).toBe('docs/README.md');
    expect(headingAnchors('# A\n```sh\n# not a heading\n```\n## Key ids (`PAYLOAD_KEY_NETWORK_KIDS`)\n## A\n')).toEqual(
      new Set(['a', 'key-ids-payload_key_network_kids', 'a-1']),
    );
  });
});
