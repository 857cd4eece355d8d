import type { FieldTable } from './field-table.js';

/** ARes (auth output), 2.2.0: `source/_static/ares_220.html` (see source.ts), browser-channel rows. */
export const ARES_220: FieldTable = {
  table: 'ares_220',
  rows: [
    { name: 'acsChallengeMandated', type: 'string', inclusion: 'Conditional', enum: ['Y', 'N'], requiredIf: ['transStatus is one of [C, D]'] },
    { name: 'acsDecConInd', type: 'string', inclusion: 'Conditional', enum: ['Y', 'N'], requiredIf: ['transStatus is "D"'] },
    { name: 'acsOperatorID', type: 'string', inclusion: 'Optional', maxLength: 32 },
    { name: 'acsReferenceNumber', type: 'string', inclusion: 'Required', maxLength: 32 },
    { name: 'acsTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'acsURL', type: 'string', inclusion: 'Conditional', maxLength: 2048, format: 'url', requiredIf: ['transStatus is "C"'] },
    { name: 'authenticationType', type: 'string', inclusion: 'Conditional', regexp: '^(0[1-4]|[89][0-9])$', requiredIf: ['transStatus is one of [C, D]'] },
    {
      name: 'authenticationValue',
      type: 'string',
      inclusion: 'Conditional',
      length: 28,
      regexp: '^[a-zA-Z0-9+/]{26,28}={0,2}$',
      requiredIf: ['transStatus is one of [Y, A]'],
    },
    { name: 'cardholderInfo', type: 'string', inclusion: 'Conditional', maxLength: 128, requiredIf: ['acsDecConInd is "Y"'] },
    { name: 'dsReferenceNumber', type: 'string', inclusion: 'Required', maxLength: 32 },
    { name: 'dsTransID', type: 'string', inclusion: 'Required', maxLength: 36, format: 'uuid' },
    { name: 'eci', type: 'string', inclusion: 'Optional', maxLength: 2 },
    { name: 'messageExtension', type: 'Array of MessageExtension object', inclusion: 'Optional', maxLength: 10 },
    { name: 'messageType', type: 'string', inclusion: 'Required', enum: ['ARes'] },
    { name: 'messageVersion', type: 'string', inclusion: 'Required', enum: ['2.2.0'] },
    { name: 'threeDSServerTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'transStatus', type: 'string', inclusion: 'Required', enum: ['Y', 'N', 'U', 'A', 'C', 'D', 'R', 'I'] },
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
