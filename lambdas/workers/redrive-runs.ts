// workers -> deployed, the re-drive of recorded runs, on a schedule: a run whose start was lost (the
// accepting request's StartExecution failed after its transaction) or that was only recorded (a review
// published by the operator tool) is started. Step Functions names each execution after its run, so a
// run already started or finished is refused by Step Functions itself and nothing runs twice.
import type { Ports } from '../core/ports';

/** Starts every unfinished run (oldest first, at most `limit`); resolves with how many were asked to start. */
export const redriveRuns = async (ports: Pick<Ports, 'runs' | 'workflows'>, limit = 100): Promise<number> => {
  const runs = await ports.runs.unfinished(limit);
  for (const run of runs) await ports.workflows.start(run);
  return runs.length;
};
