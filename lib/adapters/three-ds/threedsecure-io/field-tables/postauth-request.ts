import type { FieldTable } from './field-table.js';

/** postauth input, all: `source/_static/postauth.html` (see source.ts), browser-channel rows. */
export const POSTAUTH_REQUEST: FieldTable = {
  table: 'postauth',
  rows: [{ name: 'threeDSServerTransID', type: 'string', inclusion: 'Required', format: 'uuid' }],
};
