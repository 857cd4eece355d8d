import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reading the project's Markdown as GitHub renders it: which files there are, the anchors their
 * headings get, and the links they make. Fenced code blocks are neither headings nor links.
 */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** README.md and every Markdown file under docs/, as paths relative to the repository root. */
export function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...walk('docs').sort()];
}

export const readMarkdown = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The text outside fenced code blocks (their lines blanked, so line numbers stay). */
export function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** GitHub's heading anchor: link syntax reduced to its text, lower case, punctuation dropped (not `-` or `_`), spaces → `-`. */
export const slug = (heading: string) =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

/** Every anchor a file's headings make; a repeated heading gets `-1`, `-2`… as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every inline link target of a file (`[text](target)`), with the line it is on. */
export function linkTargets(markdown: string): { target: string; line: number }[] {
  return prose(markdown)
    .split('\n')
    .flatMap((text, index) => [...text.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => ({ target: target!, line: index + 1 })));
}
