// bin -> the operator tool, `npm run --silent ops -- <command>`, beside a running local stack with the
// same PORT_BASE and DATA_DIR, or with `--stage` against a deployed stage (bin/ops/deployed-stage.ts):
// JSON on stdout; a clear message on stderr and exit 1 on error.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import * as z from 'zod/mini';
import { createDocumentClient } from '../lambdas/adapters/dynamodb';
import { OPERATOR_TOOL } from '../lambdas/core/back-office/roles';
import { publishLawyerReview, withdrawChannel } from '../lambdas/core/contracts/lawyer-actions';
import { devBootstrap } from '../lambdas/core/dev-bootstrap';
import { ActionRefused, isServiceError, notFound } from '../lambdas/core/errors';
import { CHANNELS } from '../lambdas/core/model';
import {
  acceptOnboarding,
  type Buyer,
  MAX_BUYERS,
  showOnboarding,
  submitOnboarding,
} from '../lambdas/core/onboarding';
import type { Directory } from '../lambdas/core/organisations';
import { presentContractReview } from '../lambdas/core/present';
import { getSandboxBudget, setSandboxBudget } from '../lambdas/core/sandbox-budget';
import { LOCAL_PASSWORD_COST, localUrl, PORT_OFFSETS, readLocalConfig } from '../local/config';
import { localDirectory, localServices } from '../local/wiring';
import { API_KEY_USAGE, runApiKeyCommand } from './ops/api-key-commands';
import { BACK_OFFICE_USAGE, runBackOfficeCommand } from './ops/back-office-commands';
import { deployedStage, refusalByAws, STAGES, type StageOptions } from './ops/deployed-stage';
import { LISTEN_USAGE, runListenCommand } from './ops/listen-command';
import { REQUEST_HISTORY_USAGE, runRequestHistoryCommand } from './ops/request-history-command';
import { lookedIn, type Reach, reached } from './ops/scope';
import { runTriggerCommand, TRIGGER_USAGE } from './ops/trigger-command';
import { runWebhookCommand, WEBHOOK_USAGE } from './ops/webhook-commands';

// The AWS SDK's notice that its 2027 releases need Node 22 is for the project's maintainers (who pin
// Node 24 for npm scripts), not for a reader running this tool under an older system Node: nine lines of
// it on stderr buried the tool's one-line errors. Its own switch turns that notice, and only it, off.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `usage: npm run --silent ops -- <command>
       npm run --silent ops -- --stage ${Object.keys(STAGES).join('|')} [--outputs F] [--identity-table T] <command>
         a deployed stage, with your AWS credentials: its outputs read with DescribeStacks (or from F, the
         file cdk deploy --outputs-file wrote); --environment defaults to the stage's; the identity table
         is its output IdentityTableName or T. dev-bootstrap, listen and trigger are local only.
  dev-bootstrap                         a local organisation, integration and one API key per environment
  set-budget <org_id> <n>               the organisation's sandbox budget of processed PDFs, in all
  budget <org_id>                       the sandbox budget: total, used and remaining
  submit-onboarding <onb_id> --buyers F record a sign-up form submission (F: JSON array of buyers) for testing
  accept-onboarding <onb_id>            accept a submitted sign-up
  publish-review <crv_id> [--text F]    publish the lawyer's review (F: Markdown; default: the analysis)
  withdraw <crv_id> --channel C [--reason R]
                                        take a publication down (C: contract_viewer, review, review_snapshot)
${BACK_OFFICE_USAGE}
${API_KEY_USAGE}
${WEBHOOK_USAGE}
${REQUEST_HISTORY_USAGE}
${LISTEN_USAGE}
${TRIGGER_USAGE}`;

/** The command line is wrong: the message, then the usage. */
class UsageError extends Error {}
/** An id names nothing in either environment: the message alone (the command was right). */
class NotFound extends Error {}
/** No stack to work on: the message alone. */
class NotRunning extends Error {}

// The operator reads zod's own words for a bad --buyers file.
z.config(z.locales.en());

const trimmedText = () => z.string().check(z.trim(), z.minLength(1));

const BuyersFile = z
  .array(
    z.object({
      first_name: trimmedText(),
      last_name: trimmedText(),
      email: z.pipe(z.string().check(z.trim()), z.email()),
      mobile: z._default(z.nullable(trimmedText()), null),
    }),
  )
  .check(z.minLength(1), z.maxLength(MAX_BUYERS));

/** Finds which environment's table holds the contract review. */
const findContractReview = async (reach: Reach, id: string) => {
  for (const [, { ports }] of reached(reach)) {
    if (await ports.contractReviews.get(id)) return ports;
  }
  throw new NotFound(`no contract review ${id} in ${lookedIn(reach)}`);
};

/** Finds which environment's table holds the onboarding. */
const findOnboarding = async (reach: Reach, id: string) => {
  for (const [, { ports }] of reached(reach)) {
    const onboarding = await ports.onboardings.get(id);
    if (onboarding) return { ports, onboarding };
  }
  throw new NotFound(`no onboarding ${id} in ${lookedIn(reach)}`);
};

/** The sandbox environment's ports, where sandbox budgets are kept. */
const sandboxPorts = (reach: Reach) => {
  if (!reach.sandbox)
    throw new NotFound('sandbox budgets are kept in the sandbox environment: use --stage Sandbox');
  return reach.sandbox.ports;
};

/** The commands that work beside the local stack only. */
const LOCAL_ONLY = new Set(['dev-bootstrap', 'listen', 'trigger']);

const STAGE_OPTIONS: Readonly<Record<string, keyof StageOptions>> = {
  '--stage': 'stage',
  '--outputs': 'outputsFile',
  '--identity-table': 'identityTable',
};

/** `--stage`, `--outputs` and `--identity-table` (anywhere on the line), and the rest of the line. */
const takeStageOptions = (argv: string[]): { stage: Partial<StageOptions>; rest: string[] } => {
  const stage: Partial<StageOptions> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const equals = arg.indexOf('=');
    const flag = equals === -1 ? arg : arg.slice(0, equals);
    const key = STAGE_OPTIONS[flag];
    if (key === undefined) {
      rest.push(arg);
      continue;
    }
    const value = equals === -1 ? argv[++i] : arg.slice(equals + 1);
    if (!value || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    stage[key] = value;
  }
  return { stage, rest };
};

/** Both environments of the running local stack, or a message saying how to start it. */
const localStack = async (env: NodeJS.ProcessEnv) => {
  const config = readLocalConfig(env);
  const dynamoUrl = localUrl(config, PORT_OFFSETS.dynamoDb);
  const dynamo = createDocumentClient(dynamoUrl);
  try {
    await dynamo.send(new ListTablesCommand({}));
  } catch {
    throw new NotRunning(
      `the local stack is not running (no storage at ${dynamoUrl}); start it with npm start, with the same PORT_BASE and DATA_DIR`,
    );
  }
  return { services: await localServices(config), directory: localDirectory(dynamo) };
};

const knownOrganisation = async (directory: Directory, id: string): Promise<void> => {
  if ((await directory.organisations.get(id)) === null) throw notFound('organisation');
};

/** Where the tool writes: the process's stdout and stderr, or a test's buffers (`main`). */
export interface OpsIo {
  out(text: string): void;
  err(text: string): void;
}

/** Resolves with the signal's name on Ctrl-C or SIGTERM: a long-running command (`listen`) cleans up then. */
const processStopSignal = () =>
  new Promise<string>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(signal));
  });

const HELP = new Set(['help', '--help', '-h']);

const run = async (
  line: string[],
  env: NodeJS.ProcessEnv,
  printLine: (value: unknown) => void,
): Promise<unknown> => {
  const { stage, rest: argv } = takeStageOptions(line);
  const command = argv[0] ?? '';
  if (stage.stage === undefined) {
    if (stage.outputsFile !== undefined || stage.identityTable !== undefined)
      throw new UsageError('--outputs and --identity-table go with --stage');
    const { services, directory } = await localStack(env);
    if (command === 'dev-bootstrap')
      return devBootstrap(
        directory,
        { sandbox: services.sandbox.ports, production: services.production.ports },
        LOCAL_PASSWORD_COST,
      );
    if (command === 'trigger') return runTriggerCommand(argv.slice(1), services, directory);
    if (command === 'listen')
      return runListenCommand(argv.slice(1), services, directory, printLine, processStopSignal());
    return runCommand(argv, services, directory);
  }
  if (LOCAL_ONLY.has(command))
    throw new NotFound(`${command} works beside the local stack only: run it without --stage`);
  const deployed = await deployedStage({ ...stage, stage: stage.stage });
  return runCommand(argv, { [deployed.environment]: deployed.services }, deployed.directory);
};

/** Runs a command of both the local stack and a deployed stage, in the environments reached. */
const runCommand = async (argv: string[], reach: Reach, directory: Directory): Promise<unknown> => {
  const webhook = await runWebhookCommand(argv[0] ?? '', argv.slice(1), reach, directory);
  if (webhook !== undefined) return webhook;
  const apiKey = await runApiKeyCommand(argv[0] ?? '', argv.slice(1), reach, directory);
  if (apiKey !== undefined) return apiKey;
  if (argv[0] === 'request-history') return runRequestHistoryCommand(argv.slice(1), reach, directory);
  const backOffice = await runBackOfficeCommand(argv[0] ?? '', argv.slice(1), reach, directory);
  if (backOffice !== undefined) return backOffice;

  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      buyers: { type: 'string' },
      text: { type: 'string' },
      channel: { type: 'string' },
      reason: { type: 'string' },
    },
  });
  const [command, ...args] = positionals;

  switch (command) {
    case 'set-budget': {
      const [organisationId, budget] = args;
      if (!organisationId || !budget || !/^[0-9]+$/.test(budget))
        throw new UsageError('set-budget <org_id> <n>: n is a whole number');
      await knownOrganisation(directory, organisationId);
      return setSandboxBudget(sandboxPorts(reach), OPERATOR_TOOL, organisationId, Number(budget));
    }
    case 'budget': {
      const [organisationId] = args;
      if (!organisationId) throw new UsageError('budget <org_id>');
      await knownOrganisation(directory, organisationId);
      return getSandboxBudget(sandboxPorts(reach), organisationId);
    }
    case 'submit-onboarding': {
      const [id] = args;
      if (!id || !values.buyers) throw new UsageError('submit-onboarding <onb_id> --buyers FILE');
      const parsed = BuyersFile.safeParse(JSON.parse(await readFile(values.buyers, 'utf8')));
      if (!parsed.success)
        throw new UsageError(
          `--buyers: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      const buyers: Buyer[] = parsed.data.map((b) => ({
        firstName: b.first_name,
        lastName: b.last_name,
        email: b.email,
        mobile: b.mobile,
      }));
      const { ports, onboarding } = await findOnboarding(reach, id);
      return showOnboarding(ports, await submitOnboarding(ports, onboarding, buyers));
    }
    case 'accept-onboarding': {
      const [id] = args;
      if (!id) throw new UsageError('accept-onboarding <onb_id>');
      const { ports, onboarding } = await findOnboarding(reach, id);
      return showOnboarding(ports, await acceptOnboarding(ports, onboarding, OPERATOR_TOOL));
    }
    case 'publish-review': {
      const [id] = args;
      if (!id) throw new UsageError('publish-review <crv_id> [--text FILE]');
      const text = values.text === undefined ? undefined : await readReviewFile(values.text);
      const ports = await findContractReview(reach, id);
      return presentContractReview(await publishLawyerReview(ports, OPERATOR_TOOL, id, text));
    }
    case 'withdraw': {
      const [id] = args;
      const channel = CHANNELS.find((c) => c === values.channel);
      if (!id || !channel)
        throw new UsageError(`withdraw <crv_id> --channel ${CHANNELS.join('|')} [--reason R]`);
      const ports = await findContractReview(reach, id);
      return presentContractReview(
        await withdrawChannel(ports, OPERATOR_TOOL, id, channel, values.reason ?? null),
      );
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command');
  }
};

/** The review's Markdown, or a message naming the file and what is wrong with it. */
const readReviewFile = async (file: string): Promise<string> => {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (error as Error).message;
    throw new UsageError(`--text ${file}: ${why}`);
  }
};

/** Node's parseArgs refusing the command line: an unknown option, a missing value. */
const isArgumentError = (error: unknown): boolean =>
  typeof (error as { code?: unknown }).code === 'string' &&
  ((error as { code: string }).code.startsWith('ERR_PARSE_ARGS_') ||
    (error as { code: string }).code === 'ERR_INVALID_ARG_TYPE');

/**
 * One command's lines of the usage (its line and the indented lines that follow it), or all of it for
 * no command or one the usage does not name.
 */
const usageOf = (command: string | undefined): string => {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `) || line === `  ${command}`);
  if (command === undefined || start === -1) return USAGE;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^ {2}\S/.test(line));
  return [
    'usage: npm run --silent ops --',
    lines[start],
    ...rest.slice(0, end === -1 ? undefined : end),
  ].join('\n');
};

/**
 * Runs one command line with `env` (PORT_BASE, DATA_DIR) and resolves with the exit code: the tool's
 * whole behaviour, so tests run it in their own process (`test/support/local-stack.ts`) without starting
 * a Node and compiling the tool for every call.
 */
export const main = async (argv: string[], env: NodeJS.ProcessEnv, io: OpsIo): Promise<number> => {
  if (HELP.has(argv[0] ?? '') || argv.includes('--help') || argv.includes('-h')) {
    // Help is an answer, not an error: the usage on stdout, exit 0, and no running stack needed; after a
    // command (`ops listen --help`), that command's usage alone.
    io.out(`${usageOf(HELP.has(argv[0] ?? '') ? undefined : argv[0])}\n`);
    return 0;
  }
  const printLine = (value: unknown) => io.out(`${JSON.stringify(value)}\n`);
  try {
    printLine(await run(argv, env, printLine));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || isArgumentError(error))
      io.err(`ops: ${(error as Error).message}\n${USAGE}\n`);
    else if (error instanceof ActionRefused || error instanceof NotFound) io.err(`ops: ${error.message}\n`);
    else if (isServiceError(error)) io.err(`ops: ${error.code}: ${error.message}\n`);
    else io.err(`ops: ${refusalByAws(error) ?? (error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const io: OpsIo = {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  };
  // Exits at once when done: the stack's clients keep sockets open that would hold the process.
  const code = await main(process.argv.slice(2), process.env, io);
  process.exit(code);
}
