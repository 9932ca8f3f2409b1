// test -> the environment of a person's own terminal, for tests that run what the README tells them to
// type: the test run's environment without what `npm run` added to it (the `npm_*` settings and the
// `node_modules/.bin` folders first on PATH, among them the project's Node 24), so `node` and `npm` are
// the system's, as they are for a reader on the oldest Node the README supports.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What npm sets for a script and a terminal does not have. */
const addedByNpm = (name: string) => /^npm_/i.test(name) || name === 'INIT_CWD' || name === 'NODE';

/**
 * A reader's environment, with `extra` set; `withProjectBin` puts the project's `node_modules/.bin`
 * last on PATH (as a reader who added it would have it: after the system's own `node`).
 */
export const readerEnv = (
  extra: Record<string, string> = {},
  { withProjectBin = false }: { withProjectBin?: boolean } = {},
): NodeJS.ProcessEnv => {
  const systemPath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((folder) => folder !== '' && !folder.includes('node_modules'));
  const folders = withProjectBin ? [...systemPath, path.join(ROOT, 'node_modules/.bin')] : systemPath;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !addedByNpm(name)));
  return { ...env, PATH: folders.join(path.delimiter), ...extra };
};
