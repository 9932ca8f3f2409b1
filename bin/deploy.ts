// bin -> the one deploy command (`npm run deploy`): checks the context and the CLI's region before anything
// is sent to AWS (lib/deploy-preflight.ts: a refusal is one line on stderr and exit 1), synthesises the app
// once (cdk-nag included), then deploys the stages, the identity stack and the stages' shared stacks in
// that order from the one assembly: every value one stack needs of another is an SSM parameter read at
// deployment. `--plan` prints the commands instead of running them.
//
//   npm run deploy [-- -c key=value …] [--plan] [-- <cdk deploy options, e.g. --require-approval never>]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DEPLOY_STEPS, deployRefusal } from '../lib/deploy-preflight';
import { fromRoot } from '../lib/paths';

const ASSEMBLY = 'cdk.out';

const usage = 'usage: npm run deploy -- [-c key=value …] [--plan] [-- <cdk deploy options>]';

interface Command {
  readonly context: Record<string, string>;
  readonly contextArgs: readonly string[];
  readonly plan: boolean;
  readonly deployArgs: readonly string[];
}

const parse = (args: readonly string[]): Command => {
  const context: Record<string, string> = {};
  const contextArgs: string[] = [];
  let plan = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === '--') return { context, contextArgs, plan, deployArgs: args.slice(index + 1) };
    if (arg === '--plan') plan = true;
    else if (arg === '-c' || arg === '--context') {
      const pair = args[index + 1];
      const at = pair?.indexOf('=') ?? -1;
      if (pair === undefined || at < 1) throw new Error(`${arg} takes key=value; ${usage}`);
      context[pair.slice(0, at)] = pair.slice(at + 1);
      contextArgs.push('-c', pair);
      index += 1;
    } else throw new Error(`unknown argument ${arg}; ${usage}`);
  }
  return { context, contextArgs, plan, deployArgs: [] };
};

/** The context the CDK CLI gives the app: cdk.json's, the cached lookups', then the command line's. */
const contextOf = (command: Command): Record<string, unknown> => {
  const read = (file: string): Record<string, unknown> =>
    existsSync(fromRoot(file)) ? JSON.parse(readFileSync(fromRoot(file), 'utf8')) : {};
  return {
    ...((read('cdk.json').context as Record<string, unknown> | undefined) ?? {}),
    ...read('cdk.context.json'),
    ...command.context,
  };
};

/** The region the CLI's credentials point at (AWS_REGION, a profile's region), or undefined; no AWS call. */
const cliRegion = async (): Promise<string | undefined> => {
  try {
    return await new CloudFormationClient({}).config.region();
  } catch {
    return undefined;
  }
};

/** An argument as a shell reads it back: quoted when it holds anything but plain characters. */
const shellWord = (arg: string): string =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;

const main = async (): Promise<number> => {
  const command = parse(process.argv.slice(2));
  const refusal = deployRefusal(contextOf(command), await cliRegion());
  if (refusal) {
    console.error(`deploy refused: ${refusal}`);
    return 1;
  }
  const commands = [
    ['synth', '--quiet', '--output', ASSEMBLY, ...command.contextArgs],
    ...DEPLOY_STEPS.map((selectors) => ['deploy', '--app', ASSEMBLY, ...selectors, ...command.deployArgs]),
  ];
  for (const args of commands) {
    if (command.plan) {
      console.log(['npx', 'cdk', ...args].map(shellWord).join(' '));
      continue;
    }
    const { status } = spawnSync('npx', ['cdk', ...args], { stdio: 'inherit', cwd: fromRoot('.') });
    if (status !== 0) return status ?? 1;
  }
  return 0;
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`deploy: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
