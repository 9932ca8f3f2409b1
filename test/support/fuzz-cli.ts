// test support -> `npm run fuzz`: the fuzzer (fuzz.ts) over a fresh local stack, FUZZ_CASES cases
// (10,000 by default) from FUZZ_SEED (random by default, printed so a failure can be replayed), then its
// figures. Exits 1 on the first answer that is not the service's own, with the request that got it.
// Then the MCP server's tools (fuzz-mcp.ts), FUZZ_MCP_CASES calls (as many by default; 0 skips them).
import { bearer, call, exchange } from './api-client';
import { fuzz, fuzzTarget } from './fuzz';
import { runMcpFuzz } from './fuzz-mcp';
import { devBootstrap, removeDataDir, startStack } from './local-stack';

const cases = Number(process.env.FUZZ_CASES ?? 10_000);
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`fuzz: ${cases} cases, seed ${seed} (replay with FUZZ_SEED=${seed})`);
const stack = await startStack({ env: { RATE_LIMITS: 'off' } });
let failed = false;
try {
  const figures = await fuzz(await fuzzTarget(stack), { seed, numRuns: cases });
  const bootstrap = await devBootstrap(stack);
  const token = await exchange(stack.production, bootstrap.keys.production);
  const after = await call(`${stack.production}/v1/contract-reviews?limit=1`, { headers: bearer(token) });
  const fivexx = Object.entries(figures.statuses)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, count]) => sum + count, 0);
  console.log(
    JSON.stringify({
      fuzz: {
        seed,
        cases: figures.cases,
        seconds: Number(figures.seconds.toFixed(1)),
        cases_per_second: Number((figures.cases / figures.seconds).toFixed(0)),
        statuses: figures.statuses,
        frame_api_statuses: figures.frameApi,
        status_5xx: fivexx,
        unsent_by_the_client: figures.unsent,
        ordinary_request_after: after.status,
      },
    }),
  );
  failed = after.status !== 200;
  const mcpCases = Number(process.env.FUZZ_MCP_CASES ?? cases);
  if (!failed && mcpCases > 0)
    console.log(JSON.stringify({ fuzz_mcp: await runMcpFuzz(stack, seed, mcpCases) }));
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
  console.error(`stack output (last 4,000 characters):\n${stack.output().slice(-4_000)}`);
} finally {
  await stack.stop();
  await removeDataDir(stack.dataDir);
}
process.exit(failed ? 1 : 0);
