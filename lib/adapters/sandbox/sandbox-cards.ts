/**
 * The sandbox network's tokenized cards (documented in docs/sandbox.md). Token numbers are
 * test values; the one ending 0002 is declined CARD_EXPIRED by the sandbox authorizer.
 */
export interface SandboxCard {
  id: string;
  brand: 'VISA' | 'MASTERCARD';
  token: string;
  panBin: string;
  panLastFour: string;
  expiryMonth: string;
  expiryYear: string;
  paymentAccountReference: string;
  descriptorName: string;
  /** The ECI the network's checkout carries for this card (07 → 3DS step-up under risk-based). */
  eci: string;
  /** The sandbox SRC's checkout fails for this card (502 CHECKOUT_FAILED, a documented trigger). */
  checkoutFails?: boolean;
}

export const SANDBOX_CARDS: readonly SandboxCard[] = [
  {
    id: 'visa-classic',
    brand: 'VISA',
    token: '4895370012003478',
    panBin: '411111',
    panLastFour: '1111',
    expiryMonth: '12',
    expiryYear: '2029',
    paymentAccountReference: 'V0010013819219553391925592151',
    descriptorName: 'Visa Classic',
    eci: '05',
  },
  {
    id: 'mastercard-world',
    brand: 'MASTERCARD',
    token: '5204731600014792',
    panBin: '555555',
    panLastFour: '4444',
    expiryMonth: '08',
    expiryYear: '2030',
    paymentAccountReference: '5001A9Z5VTPX6WFIHEQZHXIEXN5EX',
    descriptorName: 'Mastercard World',
    eci: '02',
  },
  {
    id: 'visa-3ds',
    brand: 'VISA',
    token: '4895370012007701',
    panBin: '400000',
    panLastFour: '3220',
    expiryMonth: '05',
    expiryYear: '2031',
    paymentAccountReference: 'V0010013819219553391925597701',
    descriptorName: 'Visa (3DS challenge)',
    eci: '07',
  },
  {
    id: 'visa-expired',
    brand: 'VISA',
    token: '4895370012000002',
    panBin: '400000',
    panLastFour: '0002',
    expiryMonth: '01',
    expiryYear: '2027',
    paymentAccountReference: 'V0010013819219553391925590002',
    descriptorName: 'Visa (declined)',
    eci: '05',
  },
  {
    id: 'visa-checkout-error',
    brand: 'VISA',
    token: '4895370012000119',
    panBin: '400000',
    panLastFour: '0119',
    expiryMonth: '03',
    expiryYear: '2030',
    paymentAccountReference: 'V0010013819219553391925590119',
    descriptorName: 'Visa (checkout fails)',
    eci: '05',
    checkoutFails: true,
  },
];

export function sandboxCard(id: string): SandboxCard {
  const card = SANDBOX_CARDS.find((candidate) => candidate.id === id);
  if (!card) throw new Error(`unknown sandbox card ${id}`);
  return card;
}
