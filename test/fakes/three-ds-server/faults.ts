import type { AuthFault } from './decisions.js';

export type Endpoint = '/preauth' | '/auth' | '/postauth';

/**
 * Faults a test injects: the next `times` calls of an endpoint hang, answer 503, reset the
 * connection after reading the request (unprocessed), are processed and lose their answer, or
 * answer late. `/auth` can also be faulted by amount (decisions.ts).
 */
export class Faults {
  private readonly queue: { endpoint: Endpoint; mode: AuthFault; left: number }[] = [];

  inject(endpoint: Endpoint, mode: AuthFault, times = 1): void {
    this.queue.push({ endpoint, mode, left: times });
  }

  /** Consumes and returns the fault for this call, if one is due. */
  take(endpoint: Endpoint): AuthFault | undefined {
    const due = this.queue.find((fault) => fault.endpoint === endpoint && fault.left > 0);
    if (!due) return undefined;
    due.left -= 1;
    return due.mode;
  }

  clear(): void {
    this.queue.length = 0;
  }
}
