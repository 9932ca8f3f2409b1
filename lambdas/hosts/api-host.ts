// host -> serves one environment's API (the `/v1` routes, or another route table: the frame API) over Node
// HTTP through the one router (api/http/app.ts) and the one Node adapter, as deployed: an ordinary
// route's body is taken whole up to API Gateway's limit, and the upload routes stream theirs into the
// endpoint, as the deployed upload ingest service does.
import type { RequestListener } from 'node:http';
import { apiApp } from '../api/http/app';
import type { RouteTable } from '../api/http/endpoint';
import type { Services } from '../core/services';
import { nodeListener } from './http/node-adapter';

/**
 * A request listener for one environment's API: the `/v1` API, or another route table (the frame API).
 */
export const apiListener = <N extends string, P>(
  services: Services<P>,
  table: RouteTable<N, P>,
): RequestListener => nodeListener(apiApp(table, async () => services).fetch);
