// core -> the records of the domain, as the interface names them. Times are epoch microseconds in
// records and ISO strings (six fractional digits) only when presented.

export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const PRODUCTS = ['legal_information', 'legal_advice', 'contract_viewer'] as const;
export type Product = (typeof PRODUCTS)[number];

export const REVIEW_KINDS = ['on_request', 'lawyer', 'ai'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export const CHANNELS = ['contract_viewer', 'review', 'review_snapshot'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Epoch microseconds. */
export type Micros = number;

/** Who is calling: every tenant record is keyed by this triple. */
export interface Scope {
  readonly organisationId: string;
  readonly integrationId: string;
  readonly environment: Environment;
}

export type PartState = 'pending' | 'running' | 'completed' | 'failed';
export type FailureReason = 'timed_out' | 'processing_error';

export interface Part {
  state: PartState;
  completedAt: Micros | null;
  failureReason: FailureReason | null;
  failedAt: Micros | null;
}

export interface LawyerReview {
  state: 'not_requested' | 'requested' | 'completed';
  requestedAt: Micros | null;
  completedAt: Micros | null;
  /**
   * While the version's contract run waits for the review: the task token that resumes it. Never
   * shown (it is a capability); gone once the review is published or a new version is accepted.
   */
  waitToken?: string;
  /**
   * Once published: the blob of the published text (`artifacts.reviewText`). Absent on reviews
   * published before it was recorded, whose text is at `artifacts.review`.
   */
  textKey?: string;
  /**
   * Once published by a staff member with a name: that name, which the review pages show (never the
   * /v1 answers). Absent for an operator tool's publish and for reviews published before it was kept.
   */
  reviewerName?: string;
}

export type PublicationState = 'not_requested' | 'pending' | 'published' | 'withdrawn' | 'failed';

export interface Publication {
  channel: Channel;
  state: PublicationState;
  /** The stable, unguessable page slug; the url is derived from it once published. */
  slug: string;
  url: string | null;
  publishedAt: Micros | null;
}

export interface Recipient {
  firstName: string;
  lastName: string;
  email: string;
}

/** One PDF of a contract review. */
export interface ContractVersion {
  contractReviewId: string;
  version: number;
  /** Hex SHA-256 of the PDF bytes: a byte-identical new version is recognised by it. */
  fileSha256: string;
  fileSize: number;
  pageCount: number;
  blobKey: string;
  createdAt: Micros;
}

export interface ContractReview {
  id: string;
  scope: Scope;
  externalReference: string;
  product: Product;
  version: number;
  review: ReviewKind | null;
  processing: Part;
  analysis: Part | null;
  lawyerReview: LawyerReview | null;
  publications: Publication[];
  clients: string[];
  recipient: Recipient | null;
  createdAt: Micros;
  /** Rises with every write (see `nextWriteTime`): the revision that concurrent writers check. */
  updatedAt: Micros;
}

export interface Onboarding {
  id: string;
  scope: Scope;
  reference: string;
  state: 'open' | 'submitted' | 'accepted';
  /** Client ids of the latest submission, primary first. */
  clientIds: string[];
  createdAt: Micros;
  submittedAt: Micros | null;
  acceptedAt: Micros | null;
}

export interface Client {
  id: string;
  scope: Scope;
  onboardingId: string;
  reference: string;
  primary: boolean;
  firstName: string;
  lastName: string;
  email: string;
  mobile: string | null;
  createdAt: Micros;
}

/** An integrator's organisation, in the identity table: it spans both environments. */
export interface Organisation {
  id: string;
  name: string;
  /** The person who created it; a person owns at most one. */
  ownerId: string;
  createdAt: Micros;
}

/**
 * Processed PDFs an organisation may send to the sandbox, across all its integrations, and how many it
 * has sent: counted in the sandbox's table, in the same transaction that accepts a PDF.
 */
export interface SandboxBudget {
  organisationId: string;
  total: number;
  used: number;
}

export interface Integration {
  id: string;
  organisationId: string;
  type: 'contract_reviews';
  name: string;
  createdAt: Micros;
}

export interface ApiKeyRecord {
  id: string;
  organisationId: string;
  integrationId: string;
  environment: Environment;
  /** Hex SHA-256 of the whole key; the key itself is never stored. */
  hash: string;
  /** The first characters of the key, to recognise it in a list. */
  prefix: string;
  /** What its owner calls it ("Production server"); null when none was given. */
  name: string | null;
  createdAt: Micros;
  /** The last accepted exchange at `POST /v1/token`, the only place a key is sent. */
  lastUsedAt: Micros | null;
  revokedAt: Micros | null;
}

/** A page of a newest-first list. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
}
