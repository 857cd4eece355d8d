import type { FieldTable } from './field-table.js';

/** RReq (postauth output), 2.2.0: `source/_static/rreq_220.html` (see source.ts), browser-channel rows. */
export const RREQ_220: FieldTable = {
  table: 'rreq_220',
  rows: [
    { name: 'acsTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'authenticationType', type: 'string', inclusion: 'Conditional', regexp: '^(0[1-4]|[89][0-9])$', requiredIf: ['transStatus is one of [Y, N]'] },
    {
      name: 'authenticationValue',
      type: 'string',
      inclusion: 'Conditional',
      length: 28,
      regexp: '^[a-zA-Z0-9+/]{26,28}={0,2}$',
      requiredIf: ['transStatus is one of [Y, A]'],
    },
    { name: 'challengeCancel', type: 'string', inclusion: 'Optional', regexp: '^(0[13-8]|[89][0-9])$' },
    { name: 'dsTransID', type: 'string', inclusion: 'Required', maxLength: 36, format: 'uuid' },
    { name: 'eci', type: 'string', inclusion: 'Optional', maxLength: 2 },
    { name: 'interactionCounter', type: 'string', inclusion: 'Conditional', length: 2, requiredIf: ['acsDecConInd is not "Y"'] },
    { name: 'messageCategory', type: 'string', inclusion: 'Required', regexp: '^(0[1-2]|[89][0-9])$' },
    { name: 'messageExtension', type: 'Array of MessageExtension object', inclusion: 'Optional', maxLength: 10 },
    { name: 'messageType', type: 'string', inclusion: 'Required', enum: ['RReq'] },
    { name: 'messageVersion', type: 'string', inclusion: 'Required', enum: ['2.2.0'] },
    { name: 'threeDSServerTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'transStatus', type: 'string', inclusion: 'Required', enum: ['Y', 'N', 'U', 'A', 'R'] },
    {
      name: 'transStatusReason',
      type: 'string',
      inclusion: 'Conditional',
      regexp: '^(0[1-9]|1[0-9]|2[0-6]|[89][0-9])$',
      requiredIf: ['transStatus is one of [N, U, R]'],
    },
    { name: 'whiteListStatus', type: 'string', inclusion: 'Optional', enum: ['Y', 'N', 'E', 'P', 'R', 'U'] },
    { name: 'whiteListStatusSource', type: 'string', inclusion: 'Conditional', regexp: '^(0[123]|[89][0-9])$', requiredIf: ['whiteListStatus is not empty'] },
  ],
};
