// core -> every state change of a contract review after it is sent (processing, analysis, lawyer review,
// publication) goes through one optimistic read-modify-write, with the events that announce it.
import type { AuditEntry } from '../back-office/audit';
import { ConcurrentChange, notFound } from '../errors';
import type { ServiceEvent } from '../events';
import type { ContractReview, Micros } from '../model';
import type { Ports, WorkflowRun } from '../ports';

export interface Change {
  review: ContractReview;
  events: ServiceEvent[];
  /** Workflow runs the change makes due, recorded in its transaction. */
  runs?: WorkflowRun[];
  /** The back office's audit entries of the change (decisions.md §11), recorded in its transaction. */
  audit?: AuditEntry[];
}

/**
 * The time a write of `current` records: never earlier than a microsecond after its last write, so
 * `updatedAt` rises with every write and serves as the record's revision, whatever the hosts' clocks.
 */
export const nextWriteTime = (
  clock: Pick<Ports['clock'], 'now'>,
  current: Pick<ContractReview, 'updatedAt'>,
): Micros => Math.max(clock.now(), current.updatedAt + 1);

/** Writers racing on one review: a few rounds of re-read and re-apply settle it. */
const MAX_ATTEMPTS = 10;

/**
 * Applies `change` to the current record and writes the result with its events in one transaction.
 * When another writer got there first, re-reads and applies `change` again, so `change` must be a pure
 * function of the record it is given. Returning `null` leaves the record as it is (nothing to do, which
 * is what makes repeated workflow steps harmless).
 */
export const changeContractReview = async (
  ports: Pick<Ports, 'contractReviews' | 'clock'>,
  id: string,
  change: (current: ContractReview, now: Micros) => Change | null,
): Promise<ContractReview> => {
  for (let attempt = 1; ; attempt++) {
    const current = await ports.contractReviews.get(id);
    if (current === null) throw notFound('contract review');
    const now = nextWriteTime(ports.clock, current);
    const outcome = change(current, now);
    if (outcome === null) return current;
    const next: ContractReview = { ...outcome.review, updatedAt: now };
    try {
      await ports.contractReviews.update(
        next,
        current.updatedAt,
        outcome.events,
        outcome.runs,
        outcome.audit,
      );
      return next;
    } catch (error) {
      if (!(error instanceof ConcurrentChange) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
};
