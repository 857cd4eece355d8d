import type { FieldTable } from './field-table.js';

/** Erro, 2.2.0: `source/_static/erro_220.html` (see source.ts), browser-channel rows. */
export const ERRO_220: FieldTable = {
  table: 'erro_220',
  rows: [
    { name: 'acsTransID', type: 'string', inclusion: 'Optional', format: 'uuid' },
    { name: 'dsTransID', type: 'string', inclusion: 'Optional', maxLength: 36, format: 'uuid' },
    {
      name: 'errorCode',
      type: 'string',
      inclusion: 'Required',
      enum: ['101', '102', '103', '201', '202', '203', '204', '301', '302', '303', '304', '305', '306', '307', '402', '403', '404', '405'],
    },
    { name: 'errorComponent', type: 'string', inclusion: 'Required', enum: ['C', 'S', 'D', 'A'] },
    { name: 'errorDescription', type: 'string', inclusion: 'Required', maxLength: 2048 },
    { name: 'errorDetail', type: 'string', inclusion: 'Required', maxLength: 2048 },
    { name: 'errorMessageType', type: 'string', inclusion: 'Optional', enum: ['ARes', 'AReq', 'PRes', 'PReq', 'CRes', 'CReq', 'RReq', 'RRes', 'Erro'] },
    { name: 'messageType', type: 'string', inclusion: 'Required', enum: ['Erro'] },
    { name: 'messageVersion', type: 'string', inclusion: 'Required', enum: ['2.2.0'] },
    { name: 'threeDSServerTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
  ],
};
