import type { CardBrand } from '../../../core/ports/three-ds-server.js';

/**
 * The directory server of a brand (preauth `ds`, preauth.html / areq tables: "used to signal
 * which DS to use on co-branded cards"). A network token is the network's own, so its brand's
 * DS is the one to ask, whatever else the card range is co-badged with.
 */
export const DIRECTORY_SERVER: Readonly<Record<CardBrand, string>> = {
  VISA: 'visa',
  MASTERCARD: 'mastercard',
  AMEX: 'amex',
  DISCOVER: 'protectbuy',
};
