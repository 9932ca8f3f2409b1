// api -> the frame API (frontend/onboarding/README.md) on each environment's frame address: one handler
// module each (`lambdas/api/<name>.ts`, exporting `handler`), authenticated by the `onbs_` session token
// alone. Its own table, apart from the `/v1` routes: neither API answers the other's credential.
import type { Route } from './routes';

const DECLARED = [
  { name: 'frame-show-form', method: 'GET', path: '/api/form' },
  { name: 'frame-save-draft', method: 'PUT', path: '/api/draft' },
  { name: 'frame-submit-form', method: 'POST', path: '/api/submit' },
] as const satisfies readonly Route[];

export const FRAME_ROUTES: readonly Route<(typeof DECLARED)[number]['name']>[] = DECLARED;

/** Every other path and method under `/api/`: 404 `not_found` or 405 `method_not_allowed`. */
export const FRAME_FALLBACK_HANDLER = 'frame-not-found' as const;

/** The name of every frame API endpoint, the fallback included. */
export type FrameEndpointName = (typeof FRAME_ROUTES)[number]['name'] | typeof FRAME_FALLBACK_HANDLER;
