/** Money in minor units of an ISO 4217 currency (SPEC §3). */
export interface Amount {
  currencyCode: string;
  value: number;
}
