import type { CardCase } from './decisions.js';

/**
 * The fake's memory of each 3DS Server transaction (a preauth opens one). It holds the account
 * number, as a real 3DS Server does, in memory only.
 */
export interface Transaction {
  threeDSServerTransID: string;
  createdAt: number;
  acctNumber: string;
  ds: string;
  card: CardCase;
  methodUrl?: string;
  methodCompleted: boolean;
  auth?: AuthState;
  rreq?: { message: Record<string, unknown>; receivedAt: number };
}

export interface AuthState {
  messageVersion: string;
  acsTransID: string;
  dsTransID: string;
  notificationURL: string;
  aresAt: number;
  transStatus: string;
  challenge?: { creqAt?: number; windowSize?: string; answered: boolean; timer?: NodeJS.Timeout };
}

export class Transactions {
  private readonly byId = new Map<string, Transaction>();
  private readonly byAcsId = new Map<string, Transaction>();

  add(transaction: Transaction): void {
    this.byId.set(transaction.threeDSServerTransID, transaction);
  }

  get(threeDSServerTransID: string): Transaction | undefined {
    return this.byId.get(threeDSServerTransID);
  }

  indexAcs(transaction: Transaction): void {
    if (transaction.auth) this.byAcsId.set(transaction.auth.acsTransID, transaction);
  }

  byAcsTransID(acsTransID: string): Transaction | undefined {
    return this.byAcsId.get(acsTransID);
  }

  clearTimers(): void {
    for (const transaction of this.byId.values()) clearTimeout(transaction.auth?.challenge?.timer);
  }
}
