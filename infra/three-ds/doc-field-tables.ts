import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';
import type { FieldRow } from '../../lib/adapters/three-ds/threedsecure-io/field-tables/field-table.js';

/**
 * Reads one field table of 3dsecure.io's published API documentation (a local checkout of
 * clearhaus/3DSv2-api-documentation, `source/_static/<table>.html`) into the rows the adapter's
 * transcription holds (lib/adapters/three-ds/threedsecure-io/field-tables/). Dev-time only: the
 * documentation is never committed here.
 *
 * Each field is a header `<div id="attr-<Object>-<field>">` (name, type) followed by a details
 * `<div>`: its inclusion (possibly varying with deviceChannel and messageCategory: the browser
 * payment variant is taken), its requirements (max/min/exact length, regexp, enum, format), the
 * channels it applies to, and its "Required if …" conditions.
 */
export async function readDocTable(docRoot: string, table: string): Promise<FieldRow[]> {
  return parseDocTable(await readFile(join(docRoot, 'source', '_static', `${table}.html`), 'utf8'));
}

/** The browser-channel rows (a row without channels is kept: the tables use that for API-only fields). */
export function parseDocTable(html: string): FieldRow[] {
  const rows: FieldRow[] = [];
  for (const header of parse(html).querySelectorAll('div.attribute-header')) {
    const details = header.nextElementSibling;
    if (!details) continue;
    const channels = details.querySelectorAll('.scenario .channel code').map(text);
    if (channels.length > 0 && !channels.includes('BRW')) continue;
    const row: FieldRow = {
      name: text(header.querySelector('.attribute-name')),
      type: text(header.querySelector('.attribute-type')),
      inclusion: inclusionOf(details) as FieldRow['inclusion'],
      ...requirementsOf(details),
    };
    const requiredIf = conditionsOf(details);
    if (requiredIf.length > 0) row.requiredIf = requiredIf;
    rows.push(row);
  }
  return rows;
}

function inclusionOf(details: HTMLElement): string {
  const inclusion = details.querySelector('.inclusion');
  if (!inclusion) return '';
  const variants = inclusion.querySelectorAll('div.dynamic');
  if (variants.length === 0) return text(inclusion);
  const browserPayment =
    variants.find((v) => v.getAttribute('deviceChannel') === '02' && v.getAttribute('messageCategory') === '01') ??
    variants.find((v) => v.getAttribute('deviceChannel') === '02' && !v.getAttribute('messageCategory'));
  return text(browserPayment ?? variants.find((v) => !v.classList.contains('hidden')) ?? variants[0]);
}

function requirementsOf(details: HTMLElement): Partial<FieldRow> {
  const requirements = details.querySelector('.requirements');
  if (!requirements) return {};
  const out: { -readonly [K in keyof FieldRow]?: FieldRow[K] } = {};
  const number = (selector: string) => {
    const value = requirements.querySelector(`${selector} code`);
    return value ? Number(text(value)) : undefined;
  };
  const maxLength = number('.maxLength');
  const minLength = number('.minLength');
  const length = number('.length');
  if (maxLength !== undefined) out.maxLength = maxLength;
  if (minLength !== undefined) out.minLength = minLength;
  if (length !== undefined) out.length = length;
  const regexp = requirements.querySelector('.regexp code');
  if (regexp) out.regexp = text(regexp);
  const enumBox = requirements.querySelector('.enum');
  if (enumBox) out.enum = enumBox.querySelectorAll('code').map(text);
  const format = requirements.querySelector('.format');
  if (format) out.format = text(format).replace(/^Format:\s*/i, '') as FieldRow['format'];
  return out;
}

/**
 * The "Required if" clauses for a browser payment. A table renders one variant of its conditions
 * per scenario (attributes deviceChannel / messageCategory); the clauses of one variant all have
 * to hold (the deviceChannel 01 variant of ARes acsSignedContent drops "deviceChannel is 01" and
 * keeps "transStatus is C"). So: the browser-payment variant, else the generic one, with clauses
 * on the scenario itself resolved — a clause that fails for a browser payment means the field is
 * never conditionally required there, one that holds is dropped.
 */
function conditionsOf(details: HTMLElement): string[] {
  const variants = details.querySelectorAll('.conditions > div');
  if (variants.length === 0) return [];
  const scenario = (v: HTMLElement) => [v.getAttribute('deviceChannel') ?? '', v.getAttribute('messageCategory') ?? ''].join('/');
  const chosen = ['02/01', '02/', '/01', '/'].map((key) => variants.find((v) => scenario(v) === key)).find(Boolean);
  if (!chosen) return [];
  const clauses = [...chosen.text.replace(/\s+/g, ' ').matchAll(/Required if (.+?)(?= Required if|$)/g)].map((m) => m[1]!.trim());
  const kept: string[] = [];
  for (const clause of clauses) {
    const scenarioClause = /^(deviceChannel|messageCategory) is "(\d\d)"$/.exec(clause);
    if (!scenarioClause) kept.push(clause);
    else if (scenarioClause[2] !== (scenarioClause[1] === 'deviceChannel' ? '02' : '01')) return [];
  }
  return kept;
}

const text = (node: HTMLElement | null | undefined) => (node ? node.text.replace(/\s+/g, ' ').trim() : '');
