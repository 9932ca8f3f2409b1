// frontend/app-kit -> an application's calls to its own backend (same origin, its session cookie sent by
// the browser): JSON both ways, and on every change the session's CSRF token, which `/api/session` gives.
export interface ApiErrorBody {
  error: { code: string; message: string };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken: string | null = null;

/** How the application names itself in a page's title and in its messages (main.tsx sets it first). */
export const APP = { title: 'Service', shortName: 'the service' };

export const nameApp = (title: string, shortName: string): void => {
  APP.title = title;
  APP.shortName = shortName;
};

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export const setCsrfToken = (token: string | null): void => {
  csrfToken = token;
};

export const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(
      0,
      'network',
      `${capitalised(APP.shortName)} cannot be reached. Check your connection and try again.`,
    );
  }
  const answer = (await response.json().catch(() => null)) as (T & Partial<ApiErrorBody>) | null;
  if (!response.ok) {
    const error = answer?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'internal_error',
      error?.message ?? `${capitalised(APP.shortName)} answered ${response.status}.`,
    );
  }
  return answer as T;
};

export const get = <T>(path: string): Promise<T> => call<T>('GET', path);

/** A query string of the values given (empty ones left out), with its `?`, or nothing. */
export const queryOf = (values: Record<string, string | undefined>): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
};
