// bench -> the timeline of single publications, from just before the POST to the GET that sees the
// contract_viewer published: every line the stack logged meanwhile (at debug level: the workflow's runs
// and steps, the render queue's attempts, each rendering thread's start and opening of the PDF, each page
// painted and stored), in milliseconds from the POST, and the longest stretches with no line at all,
// where a timer, a poll or a backoff may wait. The first publication also pays what a fresh stack loads
// once (pdf.js, Skia); the later ones show the steady state. `npx tsx bench/publish-timeline.ts [runs]
// [pages]` (default 3 runs of a 30-page text contract, `scan` as a third argument for the 300 dpi scan).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bearer, call, contractParts, uploadRequest } from '../test/support/api-client';
import { contractPdf, scannedPdf } from '../test/support/pdfs';
import { countCpu, descendants } from './cpu-time';
import { freePortBase, productionToken, startStack } from './stack';

const POLL_MS = 100;
const RUN_TIMEOUT_MS = 180_000;
/** A stretch this long with no line logged is listed as a gap. */
const GAP_MS = 40;

interface Line {
  at: number;
  text: string;
}

/** The stack's JSON lines logged from `from` to `to` (epoch ms), oldest first. */
const linesBetween = (output: string, from: number, to: number): Line[] =>
  output
    .split('\n')
    .flatMap((raw) => {
      try {
        const { timestamp, message, level, service, xray_trace_id, sampling_rate, ...fields } = JSON.parse(
          raw,
        ) as Record<string, unknown>;
        const at = Date.parse(String(timestamp));
        const detail = Object.entries(fields)
          .filter(([key]) => !['id', 'environment', 'service_request_id', 'run_id'].includes(key))
          .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
          .join(' ');
        return Number.isFinite(at) ? [{ at, text: `${message}${detail ? ` ${detail}` : ''}` }] : [];
      } catch {
        return [];
      }
    })
    .filter((line) => line.at >= from && line.at <= to)
    .sort((a, b) => a.at - b.at);

const main = async () => {
  const runs = Number(process.argv[2] ?? 3);
  const pages = Number(process.argv[3] ?? 30);
  const scan = process.argv[4] === 'scan';
  const pdf = scan ? await scannedPdf(pages, 300) : await contractPdf(pages);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-timeline-'));
  const stack = await startStack(await freePortBase(), dataDir, [], {
    POWERTOOLS_LOG_LEVEL: 'DEBUG',
    LOG_FORMAT: 'json',
  });
  try {
    const token = await productionToken(stack);
    for (let run = 1; run <= runs; run++) {
      const request = { external_reference: `timeline-${randomUUID()}`, product: 'contract_viewer' };
      const { body, headers } = uploadRequest(token, contractParts(pdf, request));
      const cpu = countCpu([stack.pid, ...descendants(stack.pid)]);
      const posted = Date.now();
      const accepted = await call(`${stack.production}/v1/contract-reviews`, {
        method: 'POST',
        headers,
        body,
      });
      const acceptedAt = Date.now();
      if (accepted.status !== 202) throw new Error(`upload answered ${accepted.status}: ${accepted.text}`);
      let seen = 0;
      for (let tick = 0; seen === 0; tick++) {
        // The bench's 100 ms grid from the 202; a GET that takes longer skips the ticks it covered.
        const due = acceptedAt + tick * POLL_MS;
        if (Date.now() - due >= POLL_MS) continue;
        await sleep(Math.max(0, due - Date.now()));
        const answer = await call(`${stack.production}/v1/contract-reviews/${accepted.body.id}`, {
          headers: bearer(token),
        });
        const viewer = (answer.body.publications as Array<{ channel: string; state: string }>).find(
          (publication) => publication.channel === 'contract_viewer',
        );
        if (viewer?.state === 'published') seen = Date.now();
        else if (viewer?.state === 'failed' || Date.now() - posted > RUN_TIMEOUT_MS)
          throw new Error(`not published: ${answer.text}`);
      }
      const cpuMs = cpu.stop().reduce((sum, seconds) => sum + seconds, 0) * 1000;
      // Lines are written as they happen; give the last ones a moment to reach the pipe.
      await sleep(200);
      // The bench's own polls are left out: one line each.
      const lines = linesBetween(stack.output(), posted, seen).filter(
        (line) => !line.text.startsWith('request method=GET'),
      );
      const rows: Line[] = [
        { at: posted, text: '(bench) POST sent' },
        { at: acceptedAt, text: '(bench) 202 read' },
        ...lines,
        { at: seen, text: '(bench) GET saw it published' },
      ].sort((a, b) => a.at - b.at);
      console.log(
        `\nRun ${run}: ${pages}-page ${scan ? 'scan' : 'text contract'}, published after ${seen - posted} ms ` +
          `(CPU of the stack ${Math.round(cpuMs)} ms)`,
      );
      for (const row of rows) console.log(`${String(row.at - posted).padStart(7)} ms  ${row.text}`);
      const gaps = rows
        .slice(1)
        .map((row, i) => ({ from: rows[i] as Line, to: row, ms: row.at - (rows[i] as Line).at }))
        .filter((gap) => gap.ms >= GAP_MS)
        .sort((a, b) => b.ms - a.ms);
      console.log(`  stretches of ${GAP_MS} ms or more with no line:`);
      for (const gap of gaps)
        console.log(`${String(gap.ms).padStart(7)} ms  after "${gap.from.text}" until "${gap.to.text}"`);
    }
  } finally {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

await main();
