// api -> every other path and method: 404 `not_found`, or 405 `method_not_allowed` with `Allow`
// where the path is known. A `/v1` call with a valid access token is still its caller's call, recorded
// in their request history (decisions.md §10: "whatever its answer, 404 included").

import { identifyCaller } from '../core/auth';
import { fail } from '../core/errors';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { endpoint } from './http/endpoint';
import { methodsAllowed } from './http/router';

const isApiPath = (path: string): boolean => path === '/v1' || path.startsWith('/v1/');

export const notFound = endpoint(
  async (request, { ports, settings }: Services<Pick<Ports, 'apiKeys' | 'clock' | 'tokenVerifier'>>) => {
    // The answer is the same whoever calls: an unidentified caller (no token, a bad one, storage down
    // while the key is checked) only leaves the call unrecorded.
    if (isApiPath(request.path)) await identifyCaller(ports, settings, request).catch(() => null);
    const allowed = methodsAllowed(request.path);
    if (allowed.length > 0) {
      fail('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(' or ')}.`, {
        headers: { Allow: allowed.join(', ') },
      });
    }
    return fail(
      'not_found',
      `There is nothing at ${request.method} ${request.path}. The API lives under /v1.`,
    );
  },
);
