import { describe, expect, it } from 'vitest';
import { parseDocTable } from '../../infra/three-ds/doc-field-tables.js';
import { expandEnum, parseClause, schemaOf } from '../../lib/adapters/three-ds/threedsecure-io/field-tables/field-schema.js';
import {
  AREQ,
  ARES,
  CRD_TABLE,
  CREQ,
  CRES,
  ERRO,
  POSTAUTH_REQUEST,
  PREAUTH_REQUEST,
  RREQ,
} from '../../lib/adapters/three-ds/threedsecure-io/field-tables/tables.js';

const TABLES = [
  PREAUTH_REQUEST,
  CRD_TABLE,
  POSTAUTH_REQUEST,
  CREQ,
  ...Object.values(AREQ),
  ...Object.values(ARES),
  ...Object.values(RREQ),
  ...Object.values(CRES),
  ...Object.values(ERRO),
];

describe('the transcribed field tables', () => {
  it.each(TABLES.map((table) => [table.table, table] as const))('%s builds a schema, every regexp compiles, every row is named once', (_, table) => {
    expect(() => schemaOf(table, { unknownFields: 'refuse' })).not.toThrow();
    for (const row of table.rows) if (row.regexp) expect(() => new RegExp(row.regexp!)).not.toThrow();
    const names = table.rows.map((row) => row.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('a reserved range in an enum stands for each of its values', () => {
    expect([...expandEnum(['01', '80-82'])]).toEqual(['01', '80', '81', '82']);
  });

  it('conditions: the simple forms are enforced, a compound one is not', () => {
    expect(parseClause('browserJavascriptEnabled is true')?.({ browserJavascriptEnabled: true })).toBe(true);
    expect(parseClause('transStatus is one of [C, D]')?.({ transStatus: 'D' })).toBe(true);
    expect(parseClause('acsDecConInd is not "Y"')?.({})).toBe(true);
    expect(parseClause('trustListStatus is not empty')?.({ trustListStatus: '' })).toBe(false);
    expect(parseClause('messageCategory is "02" and (threeRIInd is one of [01])')).toBeUndefined();
  });

  it('2.3.1 and 2.2.0 AReqs differ where the documentation says', () => {
    const row = (version: '2.2.0' | '2.3.1', name: string) => AREQ[version].rows.find((r) => r.name === name);
    expect(row('2.2.0', 'acceptLanguage')).toBeUndefined();
    expect(row('2.3.1', 'acceptLanguage')).toMatchObject({ inclusion: 'Required', type: 'Array of string' });
    expect(row('2.2.0', 'threeDSRequestorChallengeInd')?.type).toBe('string');
    expect(row('2.3.1', 'threeDSRequestorChallengeInd')?.type).toBe('Array of string');
    expect(row('2.3.1', 'notificationURL')?.format).toBe('urlHttps');
    expect(row('2.2.0', 'whiteListStatus')).toBeDefined();
    expect(row('2.3.1', 'trustListStatus')).toBeDefined();
  });
});

/**
 * The dev-time check's reader (infra/three-ds/doc-field-tables.ts) on a small table written here
 * in the documentation's layout: it must take the browser-payment variant of inclusion and
 * conditions, resolve the scenario's own clauses, and keep the browser-channel rows only.
 */
describe('the documentation reader of the dev-time check', () => {
  const field = (name: string, channels: string, inclusion: string, requirements: string, conditions = '') => `
<div channels="${channels}" class="row-even attribute-header" id="attr-X-${name}"><div class="attribute-name">${name}<a class="link"></a></div><div class="attribute-type">string</div></div>
<div channels="${channels}" class="row-even attribute-details"><div class="arg"><div class="argdef">
<div class="inclusion">${inclusion}</div><div class="requirements">${requirements}</div>
<div class="scenario"><div class="channel">Channels: ${channels
    .split(' ')
    .map((c) => `<code>${c}</code>`)
    .join('')}</div></div></div>
<div class="argdesc">${conditions ? `<div class="conditions">${conditions}</div>` : ''}</div></div></div>`;
  const html = `<div class="reference-object">
${field('a', 'APP BRW', 'Required', '<div class="maxLength">Max length: <code><span class="pre">8</span></code></div>')}
${field('b', 'APP', 'Optional', '')}
${field(
  'c',
  'APP BRW',
  '<div class="dynamic">Optional</div><div class="hidden dynamic" deviceChannel="02" messageCategory="01">Conditional</div>',
  '<div class="enum">One of: <div class="value-container"><code>Y</code><code>N</code></div></div>',
  '<div class="">Required if <a>transStatus</a> is "C"<br/>Required if <a>deviceChannel</a> is "01"<br/></div><div class="hidden" deviceChannel="01">Required if <a>transStatus</a> is "C"<br/></div>',
)}
${field('d', 'BRW', 'Conditional', '<div class="regexp">Regexp: <code>^[0-9]{1,6}$</code></div>', '<div class="">Required if <a>browserJavascriptEnabled</a> is true<br/>Required if <a>deviceChannel</a> is "02"</div>')}
</div>`;

  it('reads inclusion, requirements and conditions as a browser payment sees them', () => {
    expect(parseDocTable(html)).toEqual([
      { name: 'a', type: 'string', inclusion: 'Required', maxLength: 8 },
      { name: 'c', type: 'string', inclusion: 'Conditional', enum: ['Y', 'N'] },
      { name: 'd', type: 'string', inclusion: 'Conditional', regexp: '^[0-9]{1,6}$', requiredIf: ['browserJavascriptEnabled is true'] },
    ]);
  });
});
