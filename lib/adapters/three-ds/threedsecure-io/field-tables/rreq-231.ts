import type { FieldTable } from './field-table.js';

/** RReq (postauth output), 2.3.1: `source/_static/rreq_231.html` (see source.ts), browser-channel rows. */
export const RREQ_231: FieldTable = {
  table: 'rreq_231',
  rows: [
    { name: 'acsTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'authenticationMethod', type: 'Array of string', inclusion: 'Conditional', maxLength: 99, minLength: 1, regexp: '^[0-9]{2}$', enum: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16'], requiredIf: ['transStatus is one of [C, D]', 'transStatus is one of [Y, N]'] },
    { name: 'authenticationValue', type: 'string', inclusion: 'Conditional', maxLength: 4000, requiredIf: ['transStatus is one of [Y, A]'] },
    { name: 'cardholderInfo', type: 'CardholderInfo object', inclusion: 'Optional' },
    { name: 'challengeCancel', type: 'string', inclusion: 'Optional', regexp: '^\\d{2}$', enum: ['01', '03', '04', '05', '06', '07', '08', '09', '10'] },
    { name: 'dsTransID', type: 'string', inclusion: 'Required', maxLength: 36, format: 'uuid' },
    { name: 'eci', type: 'string', inclusion: 'Optional', maxLength: 2 },
    { name: 'interactionCounter', type: 'string', inclusion: 'Conditional', length: 2, requiredIf: ['acsDecConInd is not "Y"'] },
    { name: 'messageCategory', type: 'string', inclusion: 'Required', regexp: '^(0[1-2]|[89][0-9])$' },
    { name: 'messageExtension', type: 'Array of MessageExtension object', inclusion: 'Optional', maxLength: 15 },
    { name: 'messageType', type: 'string', inclusion: 'Required', enum: ['RReq'] },
    { name: 'messageVersion', type: 'string', inclusion: 'Required', enum: ['2.3.1'] },
    { name: 'threeDSServerTransID', type: 'string', inclusion: 'Required', format: 'uuid' },
    { name: 'transStatus', type: 'string', inclusion: 'Required', enum: ['Y', 'N', 'U', 'A', 'R'] },
    { name: 'transStatusReason', type: 'string', inclusion: 'Conditional', regexp: '^\\d{2}$', enum: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '30', '80-99'], requiredIf: ['transStatus is one of [N, U, R]'] },
    { name: 'trustListStatus', type: 'string', inclusion: 'Optional', enum: ['Y', 'N', 'E', 'P', 'R', 'U'] },
    { name: 'trustListStatusSource', type: 'string', inclusion: 'Conditional', regexp: '^(0[123]|[89][0-9])$', enum: ['01', '02', '03'], requiredIf: ['trustListStatus is not empty'] },
    { name: 'challengeErrorReporting', type: 'Error object', inclusion: 'Conditional', requiredIf: ['challengeCancel is one of [09, 10]'] },
    { name: 'deviceBindingStatus', type: 'string', inclusion: 'Optional', regexp: '^[0-9]{2}$', enum: ['01', '02', '03', '04', '05', '06-10', '11', '12', '13', '14', '15'] },
    { name: 'deviceBindingStatusSource', type: 'string', inclusion: 'Conditional', regexp: '^[0-9]{2}$', enum: ['01', '02', '03'], requiredIf: ['deviceBindingStatus is not empty'] },
    { name: 'transStatusReasonInfo', type: 'string', inclusion: 'Optional', maxLength: 256 },
  ],
};
