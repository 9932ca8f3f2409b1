// unit -> the workflow tasks are declared once (lambdas/workers/tasks.ts): every placeholder of each
// state machine file names a task or queue declared for that kind of run, every declared one is used
// there, and each task's Lambda entry exists.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RUN_KINDS } from '../../lambdas/core/ports';
import { WORKERS } from '../../lambdas/workers';
import {
  queuePlaceholder,
  taskPlaceholder,
  WORKFLOW_QUEUES,
  WORKFLOW_TASK_NAMES,
  WORKFLOW_TASKS,
  type WorkflowQueueName,
} from '../../lambdas/workers/tasks';
import { placeholdersOf, WORKFLOW_FILES } from '../../lib/workflow-state-machine';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test.each(RUN_KINDS)('the %s file names exactly the tasks and queues declared for it', (kind) => {
  const used = placeholdersOf(readFileSync(`${ROOT}/${WORKFLOW_FILES[kind]}`, 'utf8')).sort();
  const declared = [
    ...WORKFLOW_TASK_NAMES.filter((name) =>
      (WORKFLOW_TASKS[name].runs as readonly string[]).includes(kind),
    ).map(taskPlaceholder),
    ...(Object.keys(WORKFLOW_QUEUES) as WorkflowQueueName[])
      .filter((name) => (WORKFLOW_QUEUES[name].runs as readonly string[]).includes(kind))
      .map(queuePlaceholder),
  ].sort();
  expect(used.length).toBeGreaterThan(0);
  expect(used).toEqual(declared);
});

test('every task has a Lambda entry and a worker', () => {
  for (const name of WORKFLOW_TASK_NAMES) {
    const { entry } = WORKFLOW_TASKS[name];
    expect([name, existsSync(`${ROOT}/${entry}`)]).toEqual([name, true]);
    expect([name, typeof WORKERS[name]?.perform]).toEqual([name, 'function']);
  }
});
