// api -> reading a web-standard request's body up to a limit, for every surface that takes one whole (JSON
// endpoints, the portal's routes, MCP messages). Stopping early releases the stream without cancelling it:
// the request stays whole, so the host still answers on the connection and drains the rest.

export interface BodyRead {
  bytes: Uint8Array<ArrayBuffer>;
  /** False when the body went on past the limit (`bytes` then holds what came before it). */
  whole: boolean;
}

const NONE = new Uint8Array(0);

export const readBodyUpTo = async (request: Request, limit: number): Promise<BodyRead> => {
  if (request.body === null) return { bytes: NONE, whole: true };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(chunks, size), whole: true };
      if (size + value.length > limit) return { bytes: Buffer.concat(chunks, size), whole: false };
      size += value.length;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
};
