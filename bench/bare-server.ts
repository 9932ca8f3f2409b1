// bench -> the yardstick for GET throughput: a bare node:http server (its own process, as the stack is)
// answering every request with fixed bytes and headers copied from a real answer, plus a fresh
// request id per answer made by the service's own function. Prints {"port":N} once listening.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newRequestId as requestId } from '../lambdas/core/request-ids';

const body = Buffer.from(process.env.BENCH_BODY ?? '', 'base64');
const headers = JSON.parse(process.env.BENCH_HEADERS ?? '{}') as Record<string, string>;
const requestIdHeader = process.env.BENCH_REQUEST_ID_HEADER ?? 'service-request-id';

const server = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { ...headers, [requestIdHeader]: requestId(), 'content-length': body.length });
  response.end(body);
});

server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
