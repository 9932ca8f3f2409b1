// api -> every other path and method: 404 `not_found`, or 405 `method_not_allowed` with `Allow`
// where the path is known.
import { fail } from '../core/errors';
import { endpoint } from './http/endpoint';
import { methodsAllowed } from './http/router';

export const notFound = endpoint(async (request) => {
  const allowed = methodsAllowed(request.path);
  if (allowed.length > 0) {
    fail('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(' or ')}.`, {
      headers: { Allow: allowed.join(', ') },
    });
  }
  return fail('not_found', `There is nothing at ${request.method} ${request.path}. The API lives under /v1.`);
});
