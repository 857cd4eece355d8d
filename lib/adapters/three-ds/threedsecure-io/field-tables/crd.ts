import type { FieldTable } from './field-table.js';

/** CRD (preauth output), 2.3.1 page (current format): `source/_static/crd.html` (see source.ts), browser-channel rows. */
export const CRD: FieldTable = {
  table: 'crd',
  rows: [
    { name: 'acsEndProtocolVersion', type: 'string', inclusion: 'Required', format: 'validVersion' },
    { name: 'acsInfoInd', type: 'Array of string', inclusion: 'Optional', regexp: '^(0[1-9]|1[01]|[89][0-9])$' },
    { name: 'acsStartProtocolVersion', type: 'string', inclusion: 'Required', format: 'validVersion' },
    { name: 'dsEndProtocolVersion', type: 'string', inclusion: 'Optional', format: 'validVersion' },
    { name: 'dsStartProtocolVersion', type: 'string', inclusion: 'Optional', format: 'validVersion' },
    { name: 'messageType', type: 'string', inclusion: 'Required', enum: ['CRD'] },
    { name: 'threeDSMethodURL', type: 'string', inclusion: 'Optional', maxLength: 256, format: 'url' },
    { name: 'threeDSServerTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'scheme', type: 'string', inclusion: 'Required', enum: ['standin', 'visa', 'mastercard', 'amex', 'discover'] },
  ],
};
