// test support -> HTTP as bytes on a socket, for requests no HTTP client will send (no Host, broken
// framing, CONNECT, oversized headers) and the answers Node's HTTP layer would make before any handler.
import { connect } from 'node:net';

/** Sends `raw` bytes on a fresh connection and reads the whole answer, as text. */
export const rawExchange = (base: string, raw: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const socket = connect(Number(port), hostname, () => socket.write(raw));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });

/** The error code of a JSON error body; undefined when the body is none. */
const codeOf = (body: string): string | undefined => {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
};

/** The status, the `Service-Request-Id` and the error code of a raw HTTP answer. */
export const parseRaw = (text: string) => {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    requestId: /^service-request-id: (rqs_\w+)$/im.exec(head)?.[1],
    contentType: /^content-type: (.+)$/im.exec(head)?.[1],
    code: codeOf(body),
  };
};
