/** A valid 4.4 Direct Wallet body (token data with a cryptogram), with overrides. */
export const tokenData = (extra: Record<string, unknown> = {}) => ({
  token: { paymentToken: '4895370012003478', tokenExpirationMonth: '12', tokenExpirationYear: '2029' },
  dynamicData: { dynamicDataValue: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=', dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM' },
  paymentAccountReference: 'V0010013819219553391925592151',
  eci: '05',
  ...extra,
});
