// core -> the workflow runs (contract, review, delivery, acceptance): what starts and ends them, and their durable record.

import type { Environment, Micros } from '../model';

/**
 * The workflows: a contract version's `contract` run (read, publish, analyse; started when the version
 * is accepted) and `review` run (publish the review channels; started when the lawyer publishes), and
 * the `delivery` run of one webhook message (attempts on the schedule; a redelivery is a new round),
 * and the `acceptance` run of a sandbox sign-up (accepted automatically a minute after it was submitted).
 */
export const RUN_KINDS = ['contract', 'review', 'delivery', 'acceptance'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** One run of a contract version's workflows: at most one per (kind, contract review, version). */
export interface ContractRun {
  kind: 'contract' | 'review';
  environment: Environment;
  contractReviewId: string;
  version: number;
}

/** One round of delivery of a webhook message: at most one per (message, round). */
export interface DeliveryRun {
  kind: 'delivery';
  environment: Environment;
  messageId: string;
  round: number;
}

/** The automatic acceptance of one submission of a sandbox sign-up (decisions.md §7). */
export interface AcceptanceRun {
  kind: 'acceptance';
  environment: Environment;
  onboardingId: string;
  /** The submission it accepts (its `submittedAt`): a later submission has a run of its own. */
  submittedAt: Micros;
}

export type RunRequest = ContractRun | DeliveryRun | AcceptanceRun;

/** What a run is about, unique within its kind: `crv_…#2`, `msg_…#1`. */
export const runSubject = (run: RunRequest): string => {
  switch (run.kind) {
    case 'delivery':
      return `${run.messageId}#${run.round}`;
    case 'acceptance':
      return `${run.onboardingId}#${run.submittedAt}`;
    default:
      return `${run.contractReviewId}#${run.version}`;
  }
};

/**
 * How a run is named in the log (and, locally, its execution): its environment, what it is about and
 * its kind, `production/crv_…/v2/contract`.
 */
export const runName = (run: RunRequest): string => {
  switch (run.kind) {
    case 'delivery':
      return `${run.environment}/${run.messageId}/r${run.round}/delivery`;
    case 'acceptance':
      return `${run.environment}/${run.onboardingId}/s${run.submittedAt}/acceptance`;
    default:
      return `${run.environment}/${run.contractReviewId}/v${run.version}/${run.kind}`;
  }
};

export type RunOutcome = 'completed' | 'failed' | 'superseded';

/** A run a workflow carries from its start; a delivery run is the delivery queue's (`DeliveryQueue`). */
export type WorkflowRun = Exclude<RunRequest, DeliveryRun>;

export interface Workflows {
  /** Starts a recorded run; starting one that is already running or finished does nothing. */
  start(run: WorkflowRun): Promise<void>;
  /**
   * Ends the wait of a run's Task with its task token: the Task succeeds with `output` (the lawyer's
   * review is published; a render is done). A wait that is over already is left as it is.
   */
  completeWait(token: string, output: object): Promise<void>;
  /**
   * Ends the wait of a run's Task with its task token: the Task fails with `error` (its name, which the
   * definition retries or catches, e.g. `Superseded`) and `cause`. A wait that is over already is left
   * as it is.
   */
  failWait(token: string, error: string, cause: string): Promise<void>;
}

/** The error a superseded wait fails with: a newer version was accepted, which asks for its own. */
export const SUPERSEDED = 'Superseded';

/**
 * The durable record of every run, written in the transaction that makes the run due (a version
 * accepted, a review published). A run not yet finished is re-driven after a restart.
 */
export interface RunStore {
  /** Workflow runs recorded and not finished, oldest first: the first `limit` of them. */
  unfinished(limit: number): Promise<WorkflowRun[]>;
  /**
   * Every workflow run recorded and not finished, oldest first, `pageSize` at a time: what the re-drive
   * walks, so that runs which keep failing (or wait days for a lawyer) never hide newer ones.
   */
  eachUnfinished(pageSize: number): AsyncIterable<WorkflowRun[]>;
  /** Marks a run finished; finishing it again changes nothing. */
  finish(run: WorkflowRun, outcome: RunOutcome): Promise<void>;
}

/** The runs area: what starts and ends the workflows, and the record the re-drive walks. */
export interface RunPorts {
  workflows: Workflows;
  runs: RunStore;
}
