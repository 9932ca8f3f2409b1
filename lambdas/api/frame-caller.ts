// api -> who may call the frame API: the frame's own page alone (`Sec-Fetch-Site: same-origin`, or, from
// a browser that sends no `Sec-Fetch-Site`, the frame's own `Origin`), with the session token, from a
// browser known by its binding cookie. The cookie is the frame origin's, HttpOnly and partitioned
// (`SameSite=None; Partitioned`: a frame on another site keeps it even where third-party cookies are
// blocked, and the customer's page can neither read nor send it); a browser that refuses it still opens
// and submits the form, and its drafts are not kept.

import { enforceRate } from '../core/auth';
import { fail } from '../core/errors';
import type { Onboarding } from '../core/model';
import {
  type Browser,
  browserOf,
  FRAME_WRITE_LIMITS,
  frameWriteBuckets,
  onboardingOfToken,
  sessionTokenOf,
} from '../core/onboarding-frame';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { readCookies } from './http/cookies';
import type { Reply } from './http/endpoint';
import type { ApiRequest } from './http/request';

export const BINDING_COOKIE = 'onboarding_browser';

/** Chromium's longest cookie life (400 days); the token never expires, so neither should a draft's key. */
const BINDING_MAX_AGE = 400 * 24 * 60 * 60;

/** `Secure` always: browsers take it from https and from http://127.0.0.1 or localhost (the local stack). */
export const bindingCookie = (binding: string): string =>
  `${BINDING_COOKIE}=${binding}; Path=/api/; Max-Age=${BINDING_MAX_AGE}; HttpOnly; Secure; SameSite=None; Partitioned`;

/** Whether the request comes from the frame's own page (a browser says so; nothing else can make it). */
const fromTheFrame = (request: ApiRequest): boolean => {
  const site = request.header('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = request.header('origin');
  const host = request.header('host');
  return (
    origin !== undefined &&
    host !== undefined &&
    (origin === `https://${host}` || origin === `http://${host}`)
  );
};

export interface FrameCall {
  token: string;
  onboarding: Onboarding;
  browser: Browser;
}

/**
 * The caller of a frame API request, refused unless it comes from the frame (`origin_not_allowed`), with a
 * session token (`session_invalid`), and, for a write, within its rate (`rate_limited`).
 */
export const frameCall = async (
  request: ApiRequest,
  { ports, settings }: Services<Pick<Ports, 'ids' | 'onboardings' | 'rateLimiter'>>,
  write?: keyof typeof FRAME_WRITE_LIMITS,
): Promise<FrameCall> => {
  if (!fromTheFrame(request))
    fail(
      'origin_not_allowed',
      `The frame API answers the sign-up form's own frame only (Sec-Fetch-Site: same-origin); this request came from ${
        request.header('origin') ?? request.header('sec-fetch-site') ?? 'no browser page'
      }. Mount the form with /onboarding.js; a page or a server never calls the frame API.`,
    );
  const token = sessionTokenOf(request.header('authorization'));
  const onboarding = await onboardingOfToken(ports, token);
  const browser = browserOf(ports, readCookies(request.header('cookie')).get(BINDING_COOKIE));
  if (write !== undefined) {
    const { ratePerSecond, burst } = FRAME_WRITE_LIMITS[write];
    for (const bucket of frameWriteBuckets(write, token, browser))
      await enforceRate(ports, settings, bucket, ratePerSecond, burst);
  }
  return { token, onboarding, browser };
};

/** `reply` with the binding cookie when the browser had none: the one moment it is given. */
export const withBinding = (reply: Reply, browser: Browser): Reply =>
  browser.minted === null
    ? reply
    : { ...reply, headers: { ...reply.headers, 'Set-Cookie': bindingCookie(browser.minted) } };
