import type { FieldTable } from './field-table.js';

/** CRes (final, ACS to notification URL), 2.2.0: `source/_static/cres_220.html` (see source.ts), browser-channel rows. */
export const CRES_220: FieldTable = {
  table: 'cres_220',
  rows: [
    { name: 'acsTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'messageExtension', type: 'Array of MessageExtension object', inclusion: 'Optional', maxLength: 10 },
    { name: 'messageType', type: 'string', inclusion: 'Required', enum: ['CRes'] },
    { name: 'messageVersion', type: 'string', inclusion: 'Required', enum: ['2.2.0'] },
    { name: 'threeDSServerTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'transStatus', type: 'string', inclusion: 'Required', enum: ['Y', 'N'] },
  ],
};
