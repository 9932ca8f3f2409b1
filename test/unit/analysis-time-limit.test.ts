// The analysis's time limit ends in a recorded failure (issue 26 item 3, decisions.md §8): the Analyse
// state retries `AnalysisTimedOut` as a failed run is retried (3 times with backoff, §8), not the 6 quick
// retries of a passing fault, then the run gives up and finish-run records the reason `timed_out`, which
// it reads from the error's message.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import { ANALYSIS_TIME_LIMIT_MS, AnalysisTimedOut } from '../../lambdas/core/analysis';

interface Retrier {
  ErrorEquals: string[];
  MaxAttempts?: number;
  IntervalSeconds?: number;
  BackoffRate?: number;
  JitterStrategy?: string;
}
interface TaskState {
  TimeoutSeconds: number;
  Retry: Retrier[];
  Catch: Array<{ ErrorEquals: string[]; Next: string }>;
}

const definition = JSON.parse(
  readFileSync(new URL('../../lib/workflows/contract-pipeline.asl.json', import.meta.url), 'utf8'),
) as { States: { Analyse: TaskState } };
const analyse = definition.States.Analyse;

describe('the analysis time limit', () => {
  test('is retried 3 times with backoff, as §8 retries a failed run: the first retrier that takes it', () => {
    const retrier = analyse.Retry.find(
      (r) => r.ErrorEquals.includes('AnalysisTimedOut') || r.ErrorEquals.includes('States.ALL'),
    );
    expect(retrier).toEqual({
      ErrorEquals: ['AnalysisTimedOut'],
      IntervalSeconds: 10,
      BackoffRate: 3,
      MaxAttempts: 3,
      JitterStrategy: 'NONE',
    });
    expect(analyse.Catch.find((c) => c.ErrorEquals.includes('States.ALL'))?.Next).toBe('GiveUp');
  });

  test('says timed_out, the reason the run records, and ends before the state’s own timeout', () => {
    const error = new AnalysisTimedOut();
    expect(error.name).toBe('AnalysisTimedOut');
    expect(error.message).toContain('timed_out');
    expect(ANALYSIS_TIME_LIMIT_MS).toBeLessThan(analyse.TimeoutSeconds * 1000);
  });
});
