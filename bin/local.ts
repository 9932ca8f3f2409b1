// bin -> `npm start`: the local stack, until SIGINT or SIGTERM. What it prints for the person who
// started it (the addresses, stopping) is plain text; the stack's own log is the service's logger.
import { setSourceMapsSupport } from 'node:module';
import { log, writeLinesForPeople } from '../lambdas/core/log';
import { isLevel } from '../lambdas/core/log-lines';
import { readLocalConfig } from '../local/config';
import { writeOncePerTurn } from '../local/output-per-turn';
import { startLocalStack } from '../local/stack';

// Stack traces map to the service's TypeScript, not to the packages tsx also transpiles: pdf.js's
// core-js reads an Error's stack as it loads, which made Node decode pdf.js's whole source map (half a
// million arrays kept for the life of the process, and walked by every full garbage collection).
setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });

// The log's lines (one a request) leave in one write per turn of the event loop, not a write(2) each.
writeOncePerTurn(process.stdout);

// A person at a terminal reads a line per entry, in colour; anything else (tests, a pipe) gets JSON lines.
// LOG_FORMAT=text or json chooses either way; NO_COLOR (no-color.org) leaves the colour out.
const logFormat = process.env.LOG_FORMAT ?? (process.stdout.isTTY ? 'text' : 'json');
if (logFormat === 'text') {
  const level = (process.env.POWERTOOLS_LOG_LEVEL ?? 'info').toLowerCase();
  writeLinesForPeople(
    {
      colour: process.stdout.isTTY === true && !process.env.NO_COLOR,
      level: isLevel(level) ? level : 'info',
    },
    (line) => process.stdout.write(`${line}\n`),
  );
}

// One request's stray promise must not take down every environment's API: log it and go on serving.
process.on('unhandledRejection', (reason) => {
  log.error('unhandled rejection', { error: reason instanceof Error ? reason : String(reason) });
});

const config = readLocalConfig();
const stack = await startLocalStack(config);

const width = Math.max(...Object.keys(stack.addresses).map((name) => name.length));
console.log(
  `Local stack ready (data in ${config.dataDir}, DELAY_SCALE=${config.delayScale}, rate limits ${config.rateLimits ? (config.rateRefillScale === 1 ? 'on' : `on, refills ÷${config.rateRefillScale}`) : 'off'}, request history ${config.requestHistory ? 'on' : 'off'}):`,
);
for (const [name, url] of Object.entries(stack.addresses)) console.log(`  ${name.padEnd(width)}  ${url}`);
console.log('Operator tool: npm run --silent ops -- dev-bootstrap. Stop with Ctrl-C.');

/** However long a graceful stop may take before the process ends anyway. */
const STOP_LIMIT_MS = 30_000;

// `npm start` execs this process (package.json), so a signal to npm, which npm passes on, reaches it; a
// Ctrl-C at the terminal reaches it twice (from the terminal and from npm), and the second is ignored.
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping the local stack…`);
  // A stop that fails or hangs still ends the process, and with it DynamoDB Local and the S3 twin (each
  // is killed on this process's exit).
  setTimeout(() => {
    console.error(
      `The local stack did not stop within ${STOP_LIMIT_MS / 1_000} s (still ${stack.stoppingStage()}): ending it.`,
    );
    process.exit(1);
  }, STOP_LIMIT_MS).unref();
  try {
    await stack.stop();
    console.log('Local stack stopped.');
    process.exit(0);
  } catch (error) {
    log.error('stopping the local stack failed', { error: error instanceof Error ? error : String(error) });
    process.exit(1);
  }
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
