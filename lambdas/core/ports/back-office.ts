// core -> the ports of the back office (decisions.md §11), each as narrow as its use cases need: staff
// (kept with the identity, shared by both environments), and per environment the review desk (queue,
// assignments, drafts) and the audit log. Every change a store makes here is written with its audit
// entry in one transaction; none of them can edit or delete an audit entry.
import type { AuditAction, AuditEntry } from '../back-office/audit';
import type { Role } from '../back-office/roles';
import type { ContractReview, Micros, Page } from '../model';

/** A member of the operator's staff, by their normalised email. */
export interface StaffMember {
  email: string;
  /** How the pages name them (a review page names its lawyer); null until one is given. */
  name: string | null;
  roles: Role[];
  addedAt: Micros;
  updatedAt: Micros;
}

export interface AuditQuery {
  /** Only this staff member's entries (their email, or `operator tool`). */
  staff?: string;
  action?: AuditAction;
  /** Only entries older than this one (the page after it). */
  before?: AuditEntry;
  limit: number;
}

/** One audit log's reads, newest first, each filter answered by an index. */
export interface AuditLogReader {
  get(id: string): Promise<AuditEntry | null>;
  page(query: AuditQuery): Promise<Page<AuditEntry>>;
}

/** The staff of the identity table, and the audit log of their changes beside them. */
export interface StaffStore {
  get(email: string): Promise<StaffMember | null>;
  /** Every staff member, by email (a short list: the operator's own people). */
  list(): Promise<StaffMember[]>;
  /** Records the member (their roles replaced) and the entry, in one transaction. */
  put(member: StaffMember, audit: AuditEntry): Promise<void>;
  /** Removes the member and records the entry, in one transaction; false (nothing written) if none. */
  remove(email: string, audit: AuditEntry): Promise<boolean>;
  /** The staff changes' audit log. */
  audit: AuditLogReader;
}

/** The back office's work on one contract review: who has it, and the lawyer's draft. */
export interface ReviewDesk {
  contractReviewId: string;
  assignee: string | null;
  assignedAt: Micros | null;
  /** The saved draft; null until someone saves one. */
  draft: string | null;
  /** 0 before the first save; each save adds one. A save names the revision it was based on. */
  draftRevision: number;
  /** The contract's version the draft was saved against. */
  draftVersion: number | null;
  draftSavedBy: string | null;
  draftSavedAt: Micros | null;
}

export interface ReviewQueueSummary {
  count: number;
  complete: boolean;
  newest: ContractReview | null;
}

export interface ReviewDeskStore {
  /**
   * The environment's contract reviews whose `lawyer_review` is `requested`, oldest request first, one
   * page after `after`; read from an index holding only those.
   */
  queue(options: { limit: number; after?: ContractReview }): Promise<Page<ContractReview>>;
  /**
   * How many are in the queue, counted from the same index up to `countUpTo` (`complete` false when
   * there are more), and the newest request: what a page showing only the oldest rows says of the rest.
   */
  summary(countUpTo: number): Promise<ReviewQueueSummary>;
  get(contractReviewId: string): Promise<ReviewDesk | null>;
  getMany(contractReviewIds: readonly string[]): Promise<ReviewDesk[]>;
  /** Records the assignee with the entry, in one transaction. */
  assign(contractReviewId: string, assignee: string, at: Micros, audit: AuditEntry): Promise<void>;
  /**
   * Records the draft with the entry, in one transaction, if the stored draft's revision is still
   * `basedOnRevision`; otherwise writes nothing and throws 409 `draft_conflict`.
   */
  saveDraft(desk: ReviewDesk, basedOnRevision: number, audit: AuditEntry): Promise<void>;
}

/** The back office's contract search: by external_reference, across every integration of the environment. */
export interface ContractSearch {
  /** The ids of the reviews with this external_reference, newest first, at most `limit`. */
  byExternalReference(externalReference: string, limit: number): Promise<string[]>;
}

/** What one environment's ports give the back office (`Ports.backOffice`). */
export interface BackOfficeStores {
  desk: ReviewDeskStore;
  search: ContractSearch;
  audit: AuditLogReader;
}

/** The back office's slice of `Ports`. */
export interface BackOfficePorts {
  backOffice: BackOfficeStores;
}
