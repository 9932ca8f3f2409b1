// core -> the one error type of the service: an interface `code`, its HTTP status and a message that
// says what to send instead. The HTTP layer maps it to `{ error: { code, message } }`.

/** Every error code the /v1 API answers (interface.md and `decisions.md`), with its status. */
export const API_ERROR_STATUS = {
  // interface.md, Errors
  product_required: 400,
  product_invalid: 400,
  review_required: 400,
  review_invalid: 400,
  review_not_applicable: 400,
  review_not_available: 422,
  recipient_required: 400,
  recipient_invalid: 400,
  recipient_not_applicable: 400,
  recipient_client_unusable: 422,
  clients_invalid: 400,
  client_unknown: 422,
  request_invalid: 400,
  file_rejected: 422,
  external_reference_exists: 409,
  stale_version: 409,
  idempotency_key_reused: 422,
  idempotency_key_required: 400,
  content_digest_required: 400,
  wrong_environment: 401,
  budget_used: 403,
  reference_required: 400,
  reference_invalid: 400,
  // decisions.md §1
  authentication_required: 401,
  api_key_invalid: 401,
  token_invalid: 401,
  token_expired: 401,
  idempotency_key_invalid: 400,
  idempotency_key_in_use: 409,
  content_digest_invalid: 400,
  content_digest_mismatch: 400,
  multipart_invalid: 400,
  external_reference_required: 400,
  external_reference_invalid: 400,
  based_on_version_required: 400,
  based_on_version_invalid: 400,
  limit_invalid: 400,
  starting_after_invalid: 400,
  filter_invalid: 400,
  parameter_unknown: 400,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_STATUS;

/** Every error code of the service, with its status: the API's, and those answered elsewhere. */
export const ERROR_STATUS = {
  ...API_ERROR_STATUS,
  // decisions.md §10: the portal's and the MCP server's
  organisation_exists: 409,
  organisation_required: 403,
  endpoint_disabled: 409,
  environment_not_allowed: 403,
  // The frame API's (frontend/onboarding/README.md), answered on the frame address only
  session_invalid: 401,
  answers_too_large: 413,
  answers_invalid: 422,
  // A request to the frame API from anything but the frame's own page (a customer's page, a server)
  origin_not_allowed: 403,
  // A draft from a browser without the frame's binding cookie (it blocks the cookie): not kept
  draft_not_kept: 403,
  // The portal's own API: a change without the session's CSRF token, or from another origin
  csrf_invalid: 403,
  // The back office's (decisions.md §11): a signed-in person who is not staff, a role that may not do
  // the action, a draft saved over one it was not based on
  staff_only: 403,
  role_required: 403,
  draft_conflict: 409,
  // An action the record's state does not allow (`ActionRefused`: publishing a review nobody asked for,
  // accepting a sign-up twice, withdrawing what is not live), answered by the back office's API
  action_refused: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Extra response headers some errors carry (`Retry-After`, `Allow`, `WWW-Authenticate`). */
export type ErrorHeaders = Readonly<Record<string, string>>;

/** One field to fix, named by its path in the body (`buyers.1.email`): the frame API's `answers_invalid`. */
export interface ErrorField {
  path: string;
  message: string;
}

export interface ErrorOptions {
  headers?: ErrorHeaders;
  /** Every field to fix, answered as `error.fields`. */
  fields?: readonly ErrorField[];
  cause?: unknown;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: ErrorHeaders;
  readonly fields: readonly ErrorField[] | undefined;

  constructor(code: ErrorCode, message: string, options: ErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'ServiceError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.headers = options.headers ?? {};
    this.fields = options.fields;
  }

  toJSON(): { error: { code: ErrorCode; message: string; fields?: ErrorField[] } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fields && { fields: this.fields.map(({ path, message }) => ({ path, message })) }),
      },
    };
  }
}

/** Throws the error; declared as a function so that TypeScript narrows after a call. */
export function fail(code: ErrorCode, message: string, options?: ErrorOptions): never {
  throw new ServiceError(code, message, options);
}

export const isServiceError = (error: unknown): error is ServiceError => error instanceof ServiceError;

/** The one not-found answer: existence of another scope's record is never revealed. */
export const notFound = (what = 'resource'): ServiceError =>
  new ServiceError('not_found', `No ${what} with that id exists here.`);

/** A record changed since it was read: the writer re-reads and applies its change again. */
export class ConcurrentChange extends Error {
  constructor(
    readonly recordId: string,
    options?: { cause?: unknown },
  ) {
    super(`${recordId} changed since it was read`, options);
    this.name = 'ConcurrentChange';
  }
}

/** The person owns an organisation already (decisions.md §10: one each). */
export class OrganisationExists extends Error {
  constructor(readonly personId: string) {
    super('this person owns an organisation already');
    this.name = 'OrganisationExists';
  }
}

/** An operator's action that the record's state does not allow (publishing a review nobody asked for). */
export class ActionRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionRefused';
  }
}

/**
 * A workflow Task's failure under the name its state machine retries or catches it by (`ErrorEquals`):
 * a wait ended as `Superseded`, one that was not needed, or a failure a queue's consumer answered a
 * Task with.
 */
export class WorkflowError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/**
 * A dependency (storage, a queue, a secret, the network to them) is down, throttled or failing: a request
 * is answered 503 `service_unavailable` with `Retry-After`, a workflow's task is retried after a pause
 * (its state machine retries this error by name). The adapters raise it for their SDKs' faults.
 */
export class DependencyUnavailable extends Error {
  constructor(cause: unknown) {
    super(`a dependency is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'DependencyUnavailable';
  }
}

/**
 * Whether `error`, or a fault behind it (its `cause`, an AggregateError's `errors`, five levels down at
 * most), meets `test`.
 */
export const someFaultBehind = (error: unknown, test: (fault: object) => boolean, depth = 0): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  if (test(error)) return true;
  if (depth > 4) return false;
  if (
    error instanceof AggregateError &&
    error.errors.some((inner) => someFaultBehind(inner, test, depth + 1))
  )
    return true;
  return someFaultBehind((error as { cause?: unknown }).cause, test, depth + 1);
};

/** Whether `error`, or a fault behind it, is a `DependencyUnavailable`. */
export const isDependencyUnavailable = (error: unknown): boolean =>
  someFaultBehind(error, (fault) => fault instanceof DependencyUnavailable);
