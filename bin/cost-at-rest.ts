// bin -> the cost at rest (`npm run cost`, issue 29 item 5): synthesises every stack as the deploy rehearsal
// does (both stages with domains, alarm addresses, the identity and shared stacks; no function bundled, as no
// price reads code) and prints, per stage and for the identity stacks, what is billed while no contract is
// sent, as the Markdown table the README's "What it costs" shows (lib/cost-at-rest.ts has the prices).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { costAtRest, costTable } from '../lib/cost-at-rest';
import { synthesisedTemplates } from '../lib/template-checks';
import { rehearsalApp } from './deploy-check/rehearsal';

const main = async (): Promise<void> => {
  const outdir = mkdtempSync(join(tmpdir(), 'cost-at-rest-'));
  try {
    const app = await rehearsalApp(outdir, { 'aws:cdk:bundling-stacks': [] });
    app.synth();
    for (const line of costTable(costAtRest(synthesisedTemplates(app)))) console.log(line);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};

// Exits when done, as bin/deploy-check.ts does, whatever handle an asset build left open.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`cost: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
