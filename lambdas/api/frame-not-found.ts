// api -> every other path and method of the frame API: 404 `not_found`, or 405 `method_not_allowed`
// with `Allow` where the path is known.

import { fail } from '../core/errors';
import { FRAME_ROUTES } from './frame-routes';
import { endpoint } from './http/endpoint';
import { createRouter } from './http/router';

const FRAME_ROUTER = createRouter(FRAME_ROUTES);

export const frameNotFound = endpoint(async (request) => {
  const allowed = FRAME_ROUTER.methodsAllowed(request.path);
  if (allowed.length > 0) {
    fail('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(' or ')}.`, {
      headers: { Allow: allowed.join(', ') },
    });
  }
  const known = FRAME_ROUTES.map((route) => `${route.method} ${route.path}`).join(', ');
  return fail(
    'not_found',
    `There is nothing at ${request.method} ${request.path}. The frame API is ${known}.`,
  );
});
