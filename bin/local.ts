// bin -> `npm start`: the local stack, until SIGINT or SIGTERM.
import { readLocalConfig } from '../lambdas/hosts/local-config';
import { startLocalStack } from '../lambdas/hosts/local-stack';

// One request's stray promise must not take down every environment's API: log it and go on serving.
process.on('unhandledRejection', (reason) => {
  console.error(JSON.stringify({ level: 'error', message: 'unhandled rejection', error: String(reason) }));
});

const config = readLocalConfig();
const stack = await startLocalStack(config);

const width = Math.max(...Object.keys(stack.addresses).map((name) => name.length));
console.log(
  `Local stack ready (data in ${config.dataDir}, DELAY_SCALE=${config.delayScale}, rate limits ${config.rateLimits ? 'on' : 'off'}):`,
);
for (const [name, url] of Object.entries(stack.addresses)) console.log(`  ${name.padEnd(width)}  ${url}`);
console.log('Operator tool: npm run --silent ops -- dev-bootstrap. Stop with Ctrl-C.');

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping the local stack…`);
  await stack.stop();
  console.log('Local stack stopped.');
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
