// core -> the ports of contract reviews: their storage and reads, and the PDF inspector, renderer and analyser.

import type { ContractAnalysis } from '../analysis/types';
import type { AuditEntry } from '../back-office/audit';
import type { ServiceEvent } from '../events';
import type { ContractReview, ContractVersion, Micros, Page, Scope } from '../model';
import type { ContractRenderer, RenderedContract } from '../rendered-contract';
import type { IdempotencyCompletion } from './request-history';
import type { WorkflowRun } from './runs';

/** Opens a stored PDF for real, without holding all of it in memory. */
export interface PdfInspector {
  inspect(
    blobKey: string,
    size: number,
  ): Promise<{ readable: true; pageCount: number } | { readable: false; reason: string }>;
}

export interface NewContractReview {
  review: ContractReview;
  version: ContractVersion;
  idempotency: IdempotencyCompletion;
}

export interface NewContractVersion {
  review: ContractReview;
  version: ContractVersion;
  /** The version the caller based this one on; the write fails `stale_version` if it is no longer the latest. */
  basedOnVersion: number;
  idempotency: IdempotencyCompletion;
}

export interface ContractReviewStore {
  /**
   * Writes a new contract review, its first version, the sandbox budget use and the idempotent answer
   * in one transaction. Throws `external_reference_exists` or `budget_used`.
   */
  create(entry: NewContractReview): Promise<void>;
  /** Writes a new version in one transaction. Throws `stale_version` or `budget_used`. */
  addVersion(entry: NewContractVersion): Promise<void>;
  /**
   * Replaces the review, with `events` and the records of the `runs` it makes due in the same
   * transaction, if it is unchanged since it was read (its `updatedAt` is still `expectedUpdatedAt`);
   * otherwise throws `ConcurrentChange`.
   */
  update(
    review: ContractReview,
    expectedUpdatedAt: Micros,
    events: ServiceEvent[],
    runs?: WorkflowRun[],
    audit?: AuditEntry[],
  ): Promise<void>;
  get(id: string): Promise<ContractReview | null>;
  getVersion(id: string, version: number): Promise<ContractVersion | null>;
  findByExternalReference(scope: Scope, externalReference: string): Promise<ContractReview | null>;
  list(
    scope: Scope,
    options: { limit: number; startingAfter?: ContractReview },
  ): Promise<Page<ContractReview>>;
}

/**
 * Contract reviews as polling reads them: at most a second old, so that clients polling for a
 * publication cost no database read each. Never for decisions; those read `ContractReviewStore`.
 */
export interface ContractReviewReads {
  get(id: string): Promise<ContractReview | null>;
}

/**
 * Runs the contract analysis (core/analysis) within a deadline: in the calling thread where one task has
 * the process to itself (a Lambda), in a thread of its own where the same process answers requests (the
 * local stack). Throws `AnalysisTimedOut` once `deadlineMs` (epoch milliseconds) has passed.
 */
export interface ContractAnalyser {
  analyse(contract: RenderedContract, deadlineMs: number): Promise<ContractAnalysis>;
}

/**
 * Renders under way per organisation, as leases: a render holds one of its organisation's few slots
 * while it runs, so one tenant's burst cannot take every render at once (core/contracts/render-slots.ts).
 * A lease that is not renewed (its host died) frees itself at `until`.
 */
export interface RenderSlots {
  /** Takes a free one of the organisation's `limit` slots for `holder` until `until`: its index, or null when all are held. */
  take(organisationId: string, holder: string, limit: number, until: Micros): Promise<number | null>;
  /** Moves the holder's lease on to `until`; false when it had lapsed and another holder took the slot. */
  renew(organisationId: string, index: number, holder: string, until: Micros): Promise<boolean>;
  /** Frees the slot if the holder still has it. */
  give(organisationId: string, index: number, holder: string): Promise<void>;
}

/** The contracts area: reviews and their reads, and the PDF work (pdf.js, the analysis) of their versions. */
export interface ContractPorts {
  contractReviews: ContractReviewStore;
  contractReviewReads: ContractReviewReads;
  pdfs: PdfInspector;
  renderer: ContractRenderer;
  analyser: ContractAnalyser;
  renderSlots: RenderSlots;
}
