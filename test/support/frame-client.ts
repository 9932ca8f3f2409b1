// test support -> the frame API as the frame's own page calls it: `Sec-Fetch-Site: same-origin` (what a
// browser says of a request to its own origin) and the browser's binding cookie, kept from the answer that
// gives it. A `FrameBrowser` is one browser; `null` is a caller with no cookie at all (curl, a server).
import { type Answer, call } from './api-client';

export interface FrameBrowser {
  cookie: string | undefined;
}

export const newBrowser = (): FrameBrowser => ({ cookie: undefined });

/** The `Set-Cookie` of the binding, exactly as the frame API gives it. */
export const BINDING_SET_COOKIE =
  /^onboarding_browser=(onbb_[A-Za-z0-9]{32}); Path=\/api\/; Max-Age=34560000; HttpOnly; Secure; SameSite=None; Partitioned$/;

export interface FrameRequest {
  token?: string | null;
  body?: unknown;
  /** Headers besides the frame's; one given as '' is left out (a browser that sends no Sec-Fetch-Site). */
  headers?: Record<string, string>;
  /** The browser whose cookie goes with the request (and keeps one it is given); null: no cookie. */
  browser: FrameBrowser | null;
}

export const frameRequest = async (
  url: string,
  method: string,
  { token, body, headers: extra, browser }: FrameRequest,
): Promise<Answer> => {
  const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', ...extra };
  if (token) headers.authorization = `Bearer ${token}`;
  if (browser?.cookie !== undefined) headers.cookie = browser.cookie;
  for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
  let text: string | undefined;
  if (body !== undefined) {
    text = typeof body === 'string' ? body : JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const answer = await call(url, { method, headers, body: text });
  const binding = BINDING_SET_COOKIE.exec(answer.headers.get('set-cookie') ?? '')?.[1];
  if (browser && binding !== undefined) browser.cookie = `onboarding_browser=${binding}`;
  return answer;
};
