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

/** A ```sh block of the project's Markdown: where it is, its code, and why it is not run, if it says so. */
export interface ShellRecipe {
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  code: string;
  /** The reason of a `<!-- recipe not run: … -->` line right above the fence; undefined = it runs. */
  notRun: string | undefined;
}

/** The marker a block that is not meant to run (it deploys, installs, runs the suite) carries above its fence. */
export const NOT_RUN_MARKER = /^<!-- recipe not run: (.*?)\s*-->$/;

/** Every ```sh block of README.md and docs/ (the SPEC aside: a verbatim copy), in reading order. */
export function shellRecipes(): ShellRecipe[] {
  return markdownFiles()
    .filter((file) => file !== 'docs/SPEC.md')
    .flatMap((file) => {
      const lines = readMarkdown(file).split('\n');
      const recipes: ShellRecipe[] = [];
      for (let i = 0; i < lines.length; i++) {
        if (lines[i] !== '```sh') continue;
        const end = lines.indexOf('```', i + 1);
        if (end < 0) throw new Error(`${file}:${i + 1}: unclosed sh block`);
        const marker = NOT_RUN_MARKER.exec(lines[i - 1] ?? '');
        recipes.push({ file, line: i + 1, code: lines.slice(i + 1, end).join('\n'), notRun: marker?.[1] });
        i = end;
      }
      return recipes;
    });
}

/**
 * How a guide says its recipes continue the README's walk-through: in prose, before its first
 * ```sh block, "in the shell of the [README's walk-through](../../README.md#walk-through-…)".
 */
export const README_SHELL = /in the shell of the \[README's walk-through\]\(\.\.\/\.\.\/README\.md#walk-through-pay-an-order-with-curl\)/i;

/** The recipes of one file that run, in order, and whether they run in the shell the README's walk-through leaves. */
export interface RecipeSession {
  file: string;
  afterReadme: boolean;
  recipes: ShellRecipe[];
}

/** Every file with a ```sh block that runs: the README first, then docs/ by path. */
export function recipeSessions(): RecipeSession[] {
  const byFile = new Map<string, ShellRecipe[]>();
  for (const recipe of shellRecipes().filter((r) => r.notRun === undefined)) byFile.set(recipe.file, [...(byFile.get(recipe.file) ?? []), recipe]);
  return [...byFile].map(([file, recipes]) => {
    const before = prose(readMarkdown(file))
      .split('\n')
      .slice(0, recipes[0]!.line - 1)
      .join(' ')
      .replace(/\s+/g, ' ');
    return { file, afterReadme: file !== 'README.md' && README_SHELL.test(before), recipes };
  });
}
