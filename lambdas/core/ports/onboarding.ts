// core -> the ports of onboardings: their storage, the sealed answers' vault, and the clients they make.

import type { AuditEntry } from '../back-office/audit';
import type { ServiceEvent } from '../events';
import type { Client, Micros, Onboarding, Page, Scope } from '../model';
import type { WorkflowRun } from './runs';

/**
 * Seals what a person typed into the sign-up form, kept encrypted at rest (AES-256-GCM): `context` (the
 * onboarding id) is bound to the sealed text, which opens under that context only.
 */
export interface AnswerVault {
  seal(plaintext: string, context: string): Promise<string>;
  /** Throws when `sealed` was altered or sealed under another context or key. */
  open(sealed: string, context: string): Promise<string>;
}

/**
 * The sealed answers kept for one onboarding as one browser (by its binding's key) may see them: its own
 * draft, and the latest submission's answers with the key of the browser that sent them.
 */
export interface SealedAnswers {
  draft: string | null;
  submitted: string | null;
  submittedBy: string | null;
}

/** A submission's answers, sealed, and the key of the browser that sent them (null: one without a binding). */
export interface SubmittedAnswers {
  sealed: string;
  by: string | null;
}

export interface OnboardingStore {
  /**
   * Opens `onboarding` under its reference and records the session token's hash. When the reference is
   * taken, records the token against the existing onboarding instead and returns that one.
   */
  open(onboarding: Onboarding, sessionTokenHash: string): Promise<Onboarding>;
  get(id: string): Promise<Onboarding | null>;
  findByReference(scope: Scope, reference: string): Promise<Onboarding | null>;
  findBySessionTokenHash(hash: string): Promise<Onboarding | null>;
  /**
   * Replaces the onboarding after a submission, upserts its clients and records `events`, in one
   * transaction; with `answers`, keeps them as the submission's answers and clears the sending browser's
   * draft in it too.
   */
  saveSubmission(
    onboarding: Onboarding,
    clients: Client[],
    events: ServiceEvent[],
    extras?: {
      /** The submitted answers, sealed by the answer vault, with the browser that sent them. */
      answers?: SubmittedAnswers;
      /** Runs the submission makes due (a sandbox sign-up's automatic acceptance). */
      runs?: WorkflowRun[];
    },
  ): Promise<void>;
  /** Keeps one browser's sealed draft of the form (by its binding's key), replacing that browser's last one. */
  saveDraft(onboardingId: string, browserKey: string, sealed: string, now: Micros): Promise<void>;
  /** The browser's sealed draft and the onboarding's submitted answers, null where none is kept. */
  getAnswers(onboardingId: string, browserKey: string): Promise<SealedAnswers>;
  /** The latest submission's sealed answers, whoever sent them; null before a submission with answers. */
  submittedAnswers(onboardingId: string): Promise<string | null>;
  /**
   * Saves an accepted onboarding (state, `acceptedAt`) and records `events`, in one transaction, if it
   * was not submitted again since it was read (else `ConcurrentChange`).
   */
  saveAcceptance(onboarding: Onboarding, events: ServiceEvent[], audit?: AuditEntry[]): Promise<void>;
  /** Onboardings submitted and not accepted, oldest submission first, from an index holding only those. */
  submitted(options: { limit: number; after?: Onboarding }): Promise<Page<Onboarding>>;
}

export interface ClientStore {
  get(id: string): Promise<Client | null>;
  /** The clients of one onboarding, any submission, keyed by id. */
  listByOnboarding(onboardingId: string): Promise<Client[]>;
  list(
    scope: Scope,
    options: { limit: number; onboardingId?: string; startingAfter?: Client },
  ): Promise<Page<Client>>;
}

/** The onboarding area: onboardings, the vault that seals their answers, and the clients they make. */
export interface OnboardingPorts {
  onboardings: OnboardingStore;
  answerVault: AnswerVault;
  clients: ClientStore;
}
