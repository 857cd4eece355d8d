import type { Decline } from '../domain/decline.js';
import type { AuthorizationOutcome } from './authorizer.js';

/** Which of our operations a reference names, and where its payment lives (recorded before the request is sent). */
export interface ReferenceLocation {
  orderRef: string;
  paymentRef: string;
  operation: 'AUTHORIZE' | 'CAPTURE' | 'REVERSAL' | 'REFUND';
}

/**
 * What a processor's report (a verified notification) means, in the core's words: it knows no
 * processor's event codes.
 * - `authorization`: the authorization under the reference was approved or declined;
 * - `operation`: the capture, reversal or refund under the reference was approved or declined;
 * - `operation-failed-later`: a capture or refund the processor had accepted failed after all;
 * - `authorization-cancelled`: the processor voided the authorization by itself (`operationRef`
 *   names the reversal it amounts to);
 * - `none`: kept, nothing to apply (an event the service does not act on).
 */
export type ReportEffect =
  | { kind: 'authorization'; outcome: Exclude<AuthorizationOutcome, { kind: 'pending' }> }
  | { kind: 'operation'; outcome: Exclude<AuthorizationOutcome, { kind: 'pending' }> }
  | { kind: 'operation-failed-later'; decline: Decline }
  | { kind: 'authorization-cancelled'; operationRef: string; decline: Decline }
  | { kind: 'none' };

export interface ProcessorReport {
  /** The same for every delivery of the same report (processors deliver at least once). */
  key: string;
  /** Our reference the report is about: the paymentRef, or an operation's reference. */
  reference: string;
  effect: ReportEffect;
  /** What is kept of the report: its verified fields only, never card data or the processor's text. */
  record: Readonly<Record<string, unknown>>;
}

/**
 * The processor inbox of one merchant (SPEC 4.16 "applies each notification once"): each report
 * is stored once under its key, applied once to the payment its reference lives in, and waits
 * while that reference is not known yet. Single-item conditional writes.
 */
export interface ProcessorInbox {
  /** Stores the report unless stored before: `new`, or how the earlier delivery left it. */
  keep(merchantRef: string, report: ProcessorReport, now: number): Promise<'new' | 'waiting' | 'applied'>;
  /** Where a reference lives; undefined while no request under it was recorded. */
  locate(merchantRef: string, reference: string): Promise<ReferenceLocation | undefined>;
  markApplied(merchantRef: string, report: Pick<ProcessorReport, 'key' | 'reference'>, now: number): Promise<void>;
}

/** One merchant's verified reports from one delivery. */
export interface VerifiedReports {
  merchantRef: string;
  reports: ProcessorReport[];
}

/**
 * Where reports come from (Adyen's notification endpoint): a delivery parsed and verified —
 * every item with the key of the merchant it names — before anything is stored. Throws
 * InvalidRequestError for a body that is no delivery, UnauthenticatedError when any item fails
 * verification (then nothing of the delivery is applied).
 */
export interface ProcessorReportSource {
  read(body: unknown): Promise<VerifiedReports[]>;
}
