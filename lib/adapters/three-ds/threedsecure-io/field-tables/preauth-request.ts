import type { FieldTable } from './field-table.js';

/** preauth input, all: `source/_static/preauth.html` (see source.ts), browser-channel rows. */
export const PREAUTH_REQUEST: FieldTable = {
  table: 'preauth',
  rows: [
    { name: 'acctNumber', type: 'string', inclusion: 'Required', regexp: '^[0-9]{13,19}$' },
    { name: 'ds', type: 'string', inclusion: 'Optional', enum: ['standin', 'visa', 'mastercard', 'jcb', 'upi', 'amex', 'protectbuy', 'sbn'] },
  ],
};
