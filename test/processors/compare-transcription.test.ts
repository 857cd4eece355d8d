import { describe, expect, it } from 'vitest';
import type { Transcription } from '../../lib/adapters/processors/schema/dsl.js';
import { compareTranscription } from '../../infra/processors/compare-transcription.js';

/** The dev-time transcription check finds every kind of drift (synthetic specs: the published files are not committed). */
const published = {
  Amount: {
    type: 'object',
    additionalProperties: false,
    required: ['currency', 'value'],
    properties: { currency: { type: 'string', minLength: 3, maxLength: 3 }, value: { type: 'integer', format: 'int64' } },
  },
  Source: {
    type: 'object',
    required: ['type'],
    discriminator: { propertyName: 'type', mapping: { token: '#/components/schemas/TokenSource' } },
    properties: { type: { type: 'string' } },
  },
  TokenSource: {
    allOf: [{ $ref: '#/components/schemas/Source' }, { type: 'object', required: ['token'], properties: { token: { type: 'string', maxLength: 19 } } }],
  },
  Request: {
    type: 'object',
    required: ['amount'],
    properties: {
      amount: { $ref: '#/components/schemas/Amount' },
      source: { $ref: '#/components/schemas/Source' },
      kind: { type: 'string', enum: ['a', 'b'] },
      id: { allOf: [{ $ref: '#/components/schemas/Id' }] },
    },
  },
  Id: { type: 'string', pattern: '^x_', maxLength: 30 },
};

const transcription = (): Transcription => ({
  source: { repository: 'r', path: 'p', version: '1', commit: 'c' },
  components: {
    Amount: {
      type: 'object',
      additionalProperties: false,
      required: ['currency', 'value'],
      properties: { currency: { type: 'string', minLength: 3, maxLength: 3 }, value: { type: 'integer', format: 'int64' } },
    },
    TokenSource: {
      type: 'object',
      required: ['type', 'token'],
      properties: { type: { type: 'string', enum: ['token'] }, token: { type: 'string', maxLength: 19 } },
    },
    Request: {
      type: 'object',
      required: ['amount'],
      properties: {
        amount: { $ref: 'Amount' },
        source: { $ref: 'TokenSource' },
        kind: { type: 'string', enum: ['a', 'b'] },
        id: { type: 'string', pattern: '^x_', maxLength: 30 },
      },
    },
  },
});

const check = (edit: (t: any) => void = () => undefined) => {
  const t = transcription();
  edit(t.components);
  return compareTranscription(t, published, ['Request']);
};

describe('compareTranscription', () => {
  it('accepts a faithful transcription (refs, allOf, a discriminator mapping, the discriminator value)', () => {
    expect(check()).toEqual([]);
  });

  it.each([
    ['a changed maxLength', (c: any) => (c.TokenSource.properties.token.maxLength = 20), 'maxLength'],
    ['a missing enum value', (c: any) => (c.Request.properties.kind.enum = ['a']), 'enum'],
    ['a member not published', (c: any) => (c.Request.properties.extra = { type: 'string' }), 'not published'],
    ['a required member made optional', (c: any) => (c.Request.required = []), 'required'],
    ['an open object where the published one is closed', (c: any) => delete c.Amount.additionalProperties, 'closed'],
    ['another type', (c: any) => (c.Amount.properties.value = { type: 'string' }), 'type'],
    ['another format', (c: any) => (c.Amount.properties.value.format = 'int32'), 'format'],
    ['a lost pattern', (c: any) => delete c.Request.properties.id.pattern, 'pattern'],
    ['a discriminator value the mapping does not have', (c: any) => (c.TokenSource.properties.type.enum = ['card']), 'enum'],
  ])('reports %s', (_what, edit, word) => {
    const problems = check(edit);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toContain(word);
  });
});
