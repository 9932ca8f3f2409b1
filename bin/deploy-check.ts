// bin -> the deploy rehearsal (`npm run deploy:check`, issue 29 item 6): synthesises every stack as
// `npm run deploy` would, with the full configuration (both stages with domains in a hosted zone and an alarm
// address, the identity stack, the shared stacks with their MCP servers), and fails on: the deploy
// command's refusal, any cdk-nag finding (the synthesis itself fails), a stack over 350 resources, an
// `Fn::ImportValue` (a cross-stack export that blocks replacing what it names), an `execute-api` address
// callable without CloudFront, a Lambda function whose logs are kept forever, a placeholder domain in a
// template, and a README deploy command whose selector matches no stack (`cdk ls` against the assembly).
// Prints the resources per stack and the largest.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'aws-cdk-lib';
import { deployRefusal } from '../lib/deploy-preflight';
import { fromRoot } from '../lib/paths';
import { sizeReport, synthesisedTemplates, templateFailures } from '../lib/template-checks';
import { REHEARSAL_CONTEXT, rehearsalApp } from './deploy-check/rehearsal';
import { readmeSelectors, unmatchedSelectors } from './deploy-check/selectors';

const main = async (): Promise<number> => {
  const started = Date.now();
  const failures: string[] = [];
  const refusal = deployRefusal(REHEARSAL_CONTEXT, 'us-east-1');
  if (refusal) failures.push(`the deploy command refuses the rehearsal: ${refusal}`);

  const outdir = mkdtempSync(join(tmpdir(), 'deploy-check-'));
  try {
    const app = await rehearsalApp(outdir);
    let assembly: ReturnType<App['synth']>;
    try {
      assembly = app.synth();
    } catch (error) {
      console.error(String((error as Error).message));
      console.error('deploy:check failed: the synthesis (cdk-nag included) failed, above');
      return 1;
    }

    const templates = synthesisedTemplates(app);
    failures.push(...templateFailures(templates));
    const selectors = readmeSelectors(readFileSync(fromRoot('README.md'), 'utf8'));
    failures.push(...(await unmatchedSelectors(assembly.directory, selectors)));
    for (const line of sizeReport(templates)) console.log(line);
    console.log(`README selectors checked with cdk ls: ${selectors.join(' ')}`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
  console.log(`deploy:check took ${Math.round((Date.now() - started) / 1000)} s`);
  if (failures.length > 0) {
    console.error(`deploy:check failed (${failures.length}):`);
    for (const failure of failures) console.error(`  ${failure}`);
    return 1;
  }
  console.log('deploy:check passed');
  return 0;
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`deploy:check: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  },
);
