// bench -> one side of the client section (bench/client.ts), in a process of its own so that its memory
// is its own: `hash` (the baseline: read the file and SHA-256 it, streaming, 64 KiB at a time) or
// `upload` (the typed client sends it). Everything is loaded and the token exchanged before it says
// `ready`; it starts on a line on stdin and prints `{"ms","status"}` when done.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ContractServiceClient } from '../clients/typescript/src/index';

const [mode, file, baseUrl, apiKey] = process.argv.slice(2) as [string, string, string, string];
const client = new ContractServiceClient({ apiKey, baseUrl });
if (mode === 'upload') await client.exchangeToken();
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const started = performance.now();
let status = 0;
if (mode === 'hash') {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 }))
    hash.update(chunk as Buffer);
  hash.digest();
} else {
  const sent = await client.contractReviews.create(
    { external_reference: `bench-client-${started}`, product: 'contract_viewer' },
    { path: file },
  );
  status = sent.status;
}
process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, status })}\n`);
process.exit(0);
