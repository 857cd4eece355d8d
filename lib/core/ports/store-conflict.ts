/**
 * A conditional write lost: the record was not in the state the write required (another
 * request moved first, or the record is absent). Stores throw it — the DynamoDB adapter turns
 * `ConditionalCheckFailedException` into it — carrying the record as it was when the condition
 * failed, decoded, whenever the store can tell (`current`; undefined when it could not, and the
 * caller reads the record if it needs it). What the loss means (a 409, an idempotent answer,
 * another try) is the use case's decision, never the store's.
 */
export class StoreConflictError<T = Record<string, unknown>> extends Error {
  override readonly name: string = 'StoreConflictError';
  readonly current: T | undefined;

  constructor(current: T | undefined, options?: { cause?: unknown }) {
    super('conditional write failed', options);
    this.current = current;
  }
}
