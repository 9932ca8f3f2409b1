// test support -> what the service's logger (lambdas/core/log.ts) writes while some work runs in this
// process, as parsed JSON lines: the logger writes to the process's stdout and stderr itself.

/** The JSON lines logged while `work` runs (the logger writes to the process's stdout and stderr). */
export const linesOf = async (work: () => Promise<void>): Promise<Array<Record<string, unknown>>> => {
  let text = '';
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((stream) => stream.write);
  for (const stream of streams)
    stream.write = ((chunk: string | Uint8Array) => {
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    }) as typeof stream.write;
  try {
    await work();
  } finally {
    streams.forEach((stream, i) => {
      stream.write = writes[i] as typeof stream.write;
    });
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
};
