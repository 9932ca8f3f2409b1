// bench -> one large contract upload as an integrator sends it: the multipart body built first as a file
// on disk and hashed (Content-Digest), then streamed from that file over node:http; and the baseline
// that upload is compared with: the same bytes hashed and written to a new file on the same disk.
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { countCpu } from './cpu-time';
import { type MemoryWindow, watchMemory } from './process-memory';

/** Read size for both the upload and the baseline, so both move the bytes in the same chunks. */
const CHUNK = 1024 * 1024;

/**
 * Writes back every dirty page (`sync`) so that a timed phase does not pay for the writeback of the one
 * before (on ext4 an fsync can wait for other files' data).
 */
export const flushDisk = async (): Promise<void> => {
  await promisify(execFile)('sync');
};

export interface UploadBody {
  path: string;
  size: number;
  contentType: string;
  /** `sha-256=:<base64>:` of the whole body. */
  digest: string;
  /** Where the PDF's bytes start and end in the body (end exclusive). */
  fileStart: number;
  fileEnd: number;
}

/** The two parts around the PDF: the `request` JSON part first, then the `file` part's head. */
const framing = (boundary: string, request: unknown) => ({
  head:
    `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\nContent-Type: application/json\r\n\r\n` +
    `${JSON.stringify(request)}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="contract.pdf"\r\n` +
    'Content-Type: application/pdf\r\n\r\n',
  tail: `\r\n--${boundary}--\r\n`,
});

/** Writes the multipart body for `pdfPath` to `bodyPath`, hashing the bytes as they stream past. */
export const writeUploadBody = async (
  pdfPath: string,
  bodyPath: string,
  request: unknown,
): Promise<UploadBody> => {
  const boundary = `----bench-${randomUUID()}`;
  const { head, tail } = framing(boundary, request);
  const hash = createHash('sha256');
  async function* body() {
    yield Buffer.from(head);
    for await (const chunk of createReadStream(pdfPath, { highWaterMark: CHUNK })) yield chunk as Buffer;
    yield Buffer.from(tail);
  }
  async function* hashing(source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      hash.update(chunk);
      yield chunk;
    }
  }
  await pipeline(body, hashing, createWriteStream(bodyPath));
  const size = (await stat(bodyPath)).size;
  return {
    path: bodyPath,
    size,
    fileStart: Buffer.byteLength(head),
    fileEnd: size - Buffer.byteLength(tail),
    contentType: `multipart/form-data; boundary=${boundary}`,
    digest: `sha-256=:${hash.digest('base64')}:`,
  };
};

/**
 * The baseline: read the body file, SHA-256 it and write it to `copyPath`, then fsync, so the copy is on
 * disk and not only in the page cache (the service's blob store gets no fsync: this flatters the baseline
 * a little, i.e. makes the ratio stricter). Answers its wall time and this process's CPU time.
 */
export const baselineCopy = async (
  body: UploadBody,
  copyPath: string,
): Promise<{ wallMs: number; cpuMs: number }> => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const hash = createHash('sha256');
  const out = await open(copyPath, 'w');
  try {
    for await (const chunk of createReadStream(body.path, { highWaterMark: CHUNK })) {
      hash.update(chunk as Buffer);
      await out.write(chunk as Buffer);
    }
    await out.sync();
  } finally {
    await out.close();
  }
  const wallMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  if (`sha-256=:${hash.digest('base64')}:` !== body.digest) throw new Error('baseline read other bytes');
  await rm(copyPath);
  return { wallMs, cpuMs: (user + system) / 1000 };
};

export interface UploadTiming {
  status: number;
  /** First byte sent to the whole 202 answer read. */
  totalMs: number;
  /** When the first byte went, on CLOCK_MONOTONIC in µs (the clock of a CPU profile). */
  startedUs: number;
  /** First byte sent to the last body byte handed to the socket. */
  sendMs: number;
  /** First byte sent to the answer's status line. */
  answerMs: number;
  memory: MemoryWindow;
  /** CPU time the server process and this client used over the upload. */
  serverCpuMs: number;
  clientCpuMs: number;
  contractReviewId: string | undefined;
}

const readAnswer = async (response: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};

/** POSTs the body file to `url`, streamed, while the server's RSS (`serverPid`) is sampled. */
export const sendUpload = async (
  url: string,
  token: string,
  body: UploadBody,
  serverPid: number,
): Promise<UploadTiming> => {
  const memory = watchMemory(serverPid);
  const serverCpu = countCpu([serverPid]);
  const clientCpu = process.cpuUsage();
  try {
    const timing = await streamBody(url, token, body, memory);
    const { user, system } = process.cpuUsage(clientCpu);
    return { ...timing, serverCpuMs: (serverCpu.stop()[0] ?? 0) * 1000, clientCpuMs: (user + system) / 1000 };
  } finally {
    memory.stop();
  }
};

const streamBody = async (
  url: string,
  token: string,
  body: UploadBody,
  memory: ReturnType<typeof watchMemory>,
): Promise<Omit<UploadTiming, 'serverCpuMs' | 'clientCpuMs'>> => {
  const request = httpRequest(url, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': body.contentType,
      'content-length': String(body.size),
      'content-digest': body.digest,
      'idempotency-key': randomUUID(),
    },
  });
  const answered = once(request, 'response') as Promise<[IncomingMessage]>;
  let sentAt = Number.NaN;
  request.once('finish', () => {
    sentAt = performance.now();
  });
  const startedUs = Number(process.hrtime.bigint() / 1000n);
  const started = performance.now();
  request.flushHeaders();
  // An early answer (e.g. 413) may leave the body unsent: the status tells, not this rejection.
  const sending = pipeline(createReadStream(body.path, { highWaterMark: CHUNK }), request).catch(() => {});
  const [response] = await answered;
  const answerAt = performance.now();
  const text = await readAnswer(response);
  const finished = performance.now();
  const window = memory.stop();
  await sending;
  const status = response.statusCode ?? 0;
  if (status !== 202) throw new Error(`upload answered ${status}: ${text.slice(0, 500)}`);
  return {
    status,
    startedUs,
    totalMs: finished - started,
    sendMs: sentAt - started,
    answerMs: answerAt - started,
    memory: window,
    contractReviewId: (JSON.parse(text) as { id?: string }).id,
  };
};
