// bench -> the floor for the upload: a bare node:http server (its own process, as the stack is) doing the
// least that `POST /v1/contract-reviews` must do with a body's bytes: the SHA-256 of the whole body (to
// check `Content-Digest`), the SHA-256 of the PDF (a byte-identical version makes none) and the PDF
// written to a file. Less than any real server: no multipart parsing (the bench gives the PDF's offsets),
// no credentials, no record, no PDF opened, no fsync. Answers 202 `{"id": <the PDF's SHA-256>}`, or 400
// when the digest differs. Prints {"port":N} once listening.
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const fileStart = Number(process.env.BENCH_FILE_START);
const fileEnd = Number(process.env.BENCH_FILE_END);
const directory = process.env.BENCH_UPLOAD_DIR ?? '';
/** Bytes the file may hold unwritten before the body is read further: the service's two 8 MiB parts. */
const WRITE_AHEAD = 16 * 1024 * 1024;

const server = createServer(async (request, response) => {
  const bodyHash = createHash('sha256');
  const fileHash = createHash('sha256');
  const file = path.join(directory, randomUUID());
  const out = createWriteStream(file, { highWaterMark: WRITE_AHEAD });
  let offset = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    bodyHash.update(chunk);
    const from = Math.max(fileStart - offset, 0);
    const to = Math.min(fileEnd - offset, chunk.length);
    offset += chunk.length;
    if (from >= to) continue;
    const part = chunk.subarray(from, to);
    fileHash.update(part);
    if (!out.write(part)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  await rm(file); // the bench's disk is not filled by repeated runs
  const matches = `sha-256=:${bodyHash.digest('base64')}:` === request.headers['content-digest'];
  response.writeHead(matches ? 202 : 400, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ id: fileHash.digest('hex') }));
});

server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
