import type { FieldTable } from './field-table.js';

/** CReq (challenge request, browser to ACS), all: `source/_static/creq.html` (see source.ts), browser-channel rows. */
export const CREQ: FieldTable = {
  table: 'creq',
  rows: [
    { name: 'messageType', type: 'string', inclusion: 'Required', enum: ['CReq'] },
    { name: 'messageVersion', type: 'string', inclusion: 'Required', enum: ['2.0.1', '2.1.1', '2.1.0', '2.2.0', '2.3.0', '2.3.1'] },
    { name: 'messageExtension', type: 'Array of MessageExtension object', inclusion: 'Optional', maxLength: 10 },
    { name: 'acsTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'threeDSServerTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'challengeWindowSize', type: 'string', inclusion: 'Required', enum: ['01', '02', '03', '04', '05'] },
  ],
};
