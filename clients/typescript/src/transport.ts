// client -> how a call goes over HTTP: JSON calls through `fetch`; uploads through node:http(s), whose
// `pipeline` waits for the socket before reading more of the file. (The platform's `fetch` reads a
// streamed request body as fast as it can and buffers what the socket has not taken: measured, a
// 300 MB body grew the process by 300 MB.)
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An answer as the client reads it, whichever way the call went. */
export interface Answer {
  status: number;
  header(name: string): string | null;
  text(): Promise<string>;
}

export const fetchAnswer = (response: Response): Answer => ({
  status: response.status,
  header: (name) => response.headers.get(name),
  text: () => response.text(),
});

const readAnswer = (response: IncomingMessage): Answer => {
  const text = (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  })();
  text.catch(() => {}); // read now so the connection is freed; its fault is the caller's when it asks
  return {
    status: response.statusCode ?? 0,
    header: (name) => {
      const value = response.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    text: () => text,
  };
};

/**
 * POSTs `body` to `url`, a chunk at a time as the socket takes it. An answer that comes before the
 * whole body is sent (a refused token, a body too large) is the answer.
 */
export const postStreaming = (
  url: URL,
  headers: Record<string, string>,
  body: AsyncIterable<Uint8Array>,
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    let answered = false;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: 'POST', headers }, (response) => {
      answered = true;
      resolve(readAnswer(response));
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    pipeline(Readable.from(body), request).catch((error: unknown) => {
      if (!answered) reject(error);
    });
  });
