// bin -> the deploy rehearsal (`npm run deploy:check`, issue 29 item 6): synthesises every stack as
// `npm run deploy` would, with the full configuration (both stages with domains in a hosted zone and an alarm
// address, the identity stack, the shared stacks with their MCP servers), and fails on: the deploy
// command's refusal, any cdk-nag finding (the synthesis itself fails), a stack over 350 resources, an
// `Fn::ImportValue` (a cross-stack export that blocks replacing what it names), an `execute-api` address
// callable without CloudFront, a Lambda function whose logs are kept forever, a placeholder domain in a
// template, and a README deploy command whose selector matches no stack (`cdk ls` against the assembly).
// Prints the resources per stack and the largest.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { buildOnboardingAssets } from '../frontend/onboarding/build';
import { deployRefusal } from '../lib/deploy-preflight';
import { fromRoot } from '../lib/paths';
import { addIdentityStack, addServiceStages, buildIdentityAssets } from '../lib/service-app';
import {
  functionsWithoutRetention,
  importCount,
  MAX_RESOURCES,
  openExecuteApis,
  placeholderHosts,
  resourceCount,
  synthesisedTemplates,
} from '../lib/template-checks';
import { REHEARSAL_CONTEXT } from './deploy-check/rehearsal';

/** The stack selectors of the README's `cdk deploy|diff|destroy` commands (not `--app cdk.out` ones' options). */
export const readmeSelectors = (readme: string): string[] => {
  const selectors = new Set<string>();
  for (const [command] of readme.matchAll(/npx cdk (?:deploy|diff|destroy)\b[^`\n]*/g)) {
    const words = command.split(/\s+/).slice(3);
    for (let index = 0; index < words.length; index += 1) {
      const word = words[index] as string;
      if (word === '#') break;
      if (word.startsWith('-')) {
        if (['--app', '--outputs-file', '-c', '--context'].includes(word)) index += 1;
        continue;
      }
      selectors.add(word.replace(/^'(.*)'$/, '$1'));
    }
  }
  return [...selectors];
};

const main = async (): Promise<number> => {
  const started = Date.now();
  const failures: string[] = [];
  const refusal = deployRefusal(REHEARSAL_CONTEXT, 'us-east-1');
  if (refusal) failures.push(`the deploy command refuses the rehearsal: ${refusal}`);

  const outdir = mkdtempSync(join(tmpdir(), 'deploy-check-'));
  try {
    const app = new App({ outdir, context: REHEARSAL_CONTEXT });
    const stages = addServiceStages(app, await buildOnboardingAssets());
    addIdentityStack(app, await buildIdentityAssets(), stages);
    let assembly: ReturnType<App['synth']>;
    try {
      assembly = app.synth();
    } catch (error) {
      console.error(String((error as Error).message));
      console.error('deploy:check failed: the synthesis (cdk-nag included) failed, above');
      return 1;
    }

    const sizes: Array<[string, number]> = [];
    for (const { name, template } of synthesisedTemplates(app)) {
      const count = resourceCount(template);
      sizes.push([name, count]);
      if (count > MAX_RESOURCES) failures.push(`${name}: ${count} resources, over ${MAX_RESOURCES}`);
      const imports = importCount(template);
      if (imports > 0) failures.push(`${name}: ${imports} Fn::ImportValue (cross-stack exports)`);
      for (const id of openExecuteApis(template))
        failures.push(`${name}: ${id}'s execute-api address answers without CloudFront`);
      for (const id of functionsWithoutRetention(template))
        failures.push(`${name}: Lambda function ${id} has no log group with a retention`);
      const placeholders = placeholderHosts(template);
      if (placeholders.length > 0) failures.push(`${name}: placeholder domain ${placeholders.join(', ')}`);
    }

    const selectors = readmeSelectors(readFileSync(fromRoot('README.md'), 'utf8'));
    for (const selector of selectors) {
      const listed = spawnSync(
        fromRoot('node_modules/.bin/cdk'),
        ['ls', '--app', assembly.directory, selector],
        {
          cwd: fromRoot('.'),
          encoding: 'utf8',
        },
      );
      if (listed.status !== 0 || listed.stdout.trim() === '')
        failures.push(
          `README selector '${selector}' matches no stack (cdk ls: ${listed.stderr.trim().split('\n').at(-1)})`,
        );
    }

    sizes.sort((a, b) => b[1] - a[1]);
    console.log('resources per stack:');
    for (const [name, count] of sizes) console.log(`  ${String(count).padStart(4)}  ${name}`);
    const [largest] = sizes;
    if (largest)
      console.log(
        `largest: ${largest[0]} (${largest[1]} of ${MAX_RESOURCES} allowed, 500 CloudFormation's limit)`,
      );
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
