// bin -> a child process run to its end with its output collected: the deploy rehearsal's `cdk ls` and the
// deploy command's tests read its exit code, standard output and standard error.
import { type ExecFileOptions, execFile } from 'node:child_process';

export interface Collected {
  /** The exit code; null when a signal ended it. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` with `args`; rejects only when it could not be started. */
export const runCollected = (
  command: string,
  args: readonly string[],
  options: ExecFileOptions = {},
): Promise<Collected> =>
  new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { ...options, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const output = { stdout: String(stdout), stderr: String(stderr) };
        if (error === null) resolve({ code: 0, ...output });
        else if (typeof error.code === 'number') resolve({ code: error.code, ...output });
        else if (error.signal) resolve({ code: null, ...output });
        else reject(error);
      },
    );
  });
