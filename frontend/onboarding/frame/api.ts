// frontend/onboarding/frame -> the frame API (README: Frame API), on the frame's own origin, with the
// session token as the bearer credential and the frame's own cookie (the browser binding, which the
// service sets and no script reads) binding the answers to this browser. A 401 is a
// `SessionInvalidError`, a 422 on submit an `AnswersInvalidError` naming the fields, a draft the service
// does not keep (this browser refuses the cookie) a `DraftNotKeptError`; anything else an `Error` worth
// retrying.
import type { Problem } from './validate';

export interface FormState {
  state: string;
  submitted_at: string | null;
  answers: unknown;
}

export class SessionInvalidError extends Error {
  constructor() {
    super('The session token is unknown or malformed.');
    this.name = 'SessionInvalidError';
  }
}

export class AnswersInvalidError extends Error {
  constructor(readonly fields: Problem[]) {
    super('The service did not take the answers.');
    this.name = 'AnswersInvalidError';
  }
}

/** This browser keeps no binding cookie, so no draft is kept: the form is filled in one sitting. */
export class DraftNotKeptError extends Error {
  constructor() {
    super('This browser does not keep the frame’s cookie, so drafts are not kept.');
    this.name = 'DraftNotKeptError';
  }
}

export interface FrameApi {
  form(): Promise<FormState>;
  /** Saves `body` (JSON of `{ answers }`); `keepalive` lets it finish while the page goes away. */
  saveDraft(body: string, keepalive?: boolean): Promise<void>;
  submit(answers: unknown): Promise<{ submitted_at: string }>;
}

const readJson = async (response: Response): Promise<Record<string, unknown>> => {
  try {
    const value: unknown = await response.json();
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The problems of a 422 `answers_invalid`, as `{ path, message }` pairs. */
const fieldsOf = (body: Record<string, unknown>): Problem[] => {
  const error = body.error as { fields?: unknown } | undefined;
  if (!Array.isArray(error?.fields)) return [];
  return error.fields.flatMap((item: unknown) => {
    const f = item as { path?: unknown; message?: unknown };
    return typeof f.path === 'string' && typeof f.message === 'string'
      ? [{ path: f.path, message: f.message }]
      : [];
  });
};

const codeOf = (body: Record<string, unknown>): unknown =>
  (body.error as { code?: unknown } | undefined)?.code;

export const frameApi = (sessionToken: string): FrameApi => {
  const request = async (method: string, path: string, body?: string, keepalive = false) => {
    const response = await fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${sessionToken}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body,
      cache: 'no-store',
      // The binding cookie: the frame's own, sent to its own origin only.
      credentials: 'same-origin',
      keepalive,
    });
    if (response.status === 401) throw new SessionInvalidError();
    return response;
  };
  return {
    form: async () => {
      const response = await request('GET', '/api/form');
      if (!response.ok) throw new Error(`GET /api/form answered ${response.status}`);
      const body = await readJson(response);
      return {
        state: typeof body.state === 'string' ? body.state : 'open',
        submitted_at: typeof body.submitted_at === 'string' ? body.submitted_at : null,
        answers: body.answers ?? null,
      };
    },
    saveDraft: async (body, keepalive) => {
      const response = await request('PUT', '/api/draft', body, keepalive);
      if (response.status === 403 && codeOf(await readJson(response)) === 'draft_not_kept')
        throw new DraftNotKeptError();
      if (!response.ok) throw new Error(`PUT /api/draft answered ${response.status}`);
    },
    submit: async (answers) => {
      const response = await request('POST', '/api/submit', JSON.stringify({ answers }));
      const body = await readJson(response);
      if (response.status === 422) throw new AnswersInvalidError(fieldsOf(body));
      if (!response.ok) throw new Error(`POST /api/submit answered ${response.status}`);
      return {
        submitted_at: typeof body.submitted_at === 'string' ? body.submitted_at : new Date().toISOString(),
      };
    },
  };
};
