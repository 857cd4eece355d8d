import type { FieldTable } from './field-table.js';

/** CRes (final, ACS to notification URL), 2.3.1: `source/_static/cres_231.html` (see source.ts), browser-channel rows. */
export const CRES_231: FieldTable = {
  table: 'cres_231',
  rows: [
    { name: 'acsTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'messageExtension', type: 'Array of MessageExtension object', inclusion: 'Optional', maxLength: 15 },
    { name: 'messageType', type: 'string', inclusion: 'Required', enum: ['CRes'] },
    { name: 'messageVersion', type: 'string', inclusion: 'Required', enum: ['2.3.1'] },
    { name: 'threeDSServerTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'transStatus', type: 'string', inclusion: 'Required', enum: ['Y', 'N'] },
  ],
};
