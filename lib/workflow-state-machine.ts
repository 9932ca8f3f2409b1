// infra -> a workflow's Standard state machine, deployed from the very same ASL file the local stack runs
// (lib/workflows/*.asl.json), each Task's `${<Function>FunctionArn}` replaced by that function's ARN.
// The contract pipeline (contract and review runs) and webhook delivery (its waits) both use it.
import { readFileSync } from 'node:fs';
import { Fn, Stack } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import type { RunKind } from '../lambdas/core/ports';
import {
  queuePlaceholder,
  taskPlaceholder,
  type WorkflowQueueName,
  type WorkflowTaskName,
} from '../lambdas/workers/tasks';
import { acknowledge, acknowledgeFindings } from './checks';
import { fromRoot } from './paths';

/** The ASL file of each kind of run, relative to the repository root. */
export const WORKFLOW_FILES: Readonly<Record<RunKind, string>> = {
  contract: 'lib/workflows/contract-pipeline.asl.json',
  review: 'lib/workflows/review-publication.asl.json',
  delivery: 'lib/workflows/webhook-delivery.asl.json',
  acceptance: 'lib/workflows/onboarding-acceptance.asl.json',
};

/** The placeholders (`${Name}`) an ASL file uses, each once, in order of first use. */
export const placeholdersOf = (definition: string): string[] => [
  ...new Set([...definition.matchAll(/\$\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1] ?? '')),
];

export interface WorkflowStateMachine {
  readonly stateMachine: StateMachine;
  /** The functions its file runs (and its role may invoke), in order of first use. */
  readonly invoked: readonly IFunction[];
}

/** Where Step Functions' vended logs belong (the account's log resource policy covers the prefix once). */
export const VENDED_LOGS_PREFIX = '/aws/vendedlogs/states/';

/**
 * A state machine's log group name under the vended logs prefix, e.g.
 * `/aws/vendedlogs/states/contract-service-sandbox-stateless/contract-<stack id>`: unique to the stack's
 * deployment, so a destroyed and redeployed stack never meets the retained group of its predecessor.
 */
const vendedLogGroupName = (scope: Construct, kind: RunKind): string => {
  // Named after the stateless stack itself, not the nested stack the state machine may be in.
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return Fn.join('', [
    VENDED_LOGS_PREFIX,
    stack.stackName,
    `/${kind}-`,
    Fn.select(2, Fn.split('/', stack.stackId)),
  ]);
};

/**
 * The Standard state machine of a kind of run, `id` within `scope`. Each placeholder its file uses must
 * name one of `functions` or `queues` (by construct id; else the synth fails), and its role may invoke
 * exactly the functions the file names and send to exactly the queues it names. Errors only are logged, without the input and output of each state (they
 * may carry buyers' details), kept for a month; executions are traced.
 */
export function workflowStateMachine(
  scope: Construct,
  id: string,
  kind: RunKind,
  functions: ReadonlyMap<WorkflowTaskName, IFunction>,
  queues: ReadonlyMap<WorkflowQueueName, IQueue> = new Map(),
): WorkflowStateMachine {
  const byPlaceholder = new Map<string, IFunction>(
    [...functions].map(([name, fn]) => [taskPlaceholder(name), fn]),
  );
  const queueByPlaceholder = new Map<string, IQueue>(
    [...queues].map(([name, queue]) => [queuePlaceholder(name), queue]),
  );
  const file = fromRoot(WORKFLOW_FILES[kind]);
  const placeholders = placeholdersOf(readFileSync(file, 'utf8'));
  const sentTo = placeholders.flatMap((placeholder) => {
    const queue = queueByPlaceholder.get(placeholder);
    return queue ? [[placeholder, queue] as const] : [];
  });
  const used = placeholders
    .filter((placeholder) => !queueByPlaceholder.has(placeholder))
    .map((placeholder) => {
      const fn = byPlaceholder.get(placeholder);
      if (!fn)
        throw new Error(
          `${WORKFLOW_FILES[kind]} names \${${placeholder}}, which is no function or queue here`,
        );
      return [placeholder, fn] as const;
    });
  const stateMachine = new StateMachine(scope, id, {
    stateMachineType: StateMachineType.STANDARD,
    definitionBody: DefinitionBody.fromFile(file),
    definitionSubstitutions: Object.fromEntries([
      ...used.map(([placeholder, fn]) => [placeholder, fn.functionArn]),
      ...sentTo.map(([placeholder, queue]) => [placeholder, queue.queueUrl]),
    ]),
    logs: {
      destination: new LogGroup(scope, `${id}Logs`, {
        logGroupName: vendedLogGroupName(scope, kind),
        retention: RetentionDays.ONE_MONTH,
      }),
      // Every event, so a run's path can be followed; never the states' input and output.
      level: LogLevel.ALL,
      includeExecutionData: false,
    },
    tracingEnabled: true,
  });
  acknowledge(
    stateMachine,
    'AwsSolutions-IAM5[Resource::*]',
    'Log delivery (logs:*LogDelivery, PutResourcePolicy, Describe*) and X-Ray take no resource.',
  );
  acknowledgeFindings(
    stateMachine,
    /AwsSolutions-IAM5\[Resource::<.+\.Arn>:\*\]/,
    'The versions and aliases of the functions this file names (CDK’s grantInvoke), and no other function.',
  );
  const invoked = [...new Set(used.map(([, fn]) => fn))];
  for (const fn of invoked) fn.grantInvoke(stateMachine);
  for (const [, queue] of sentTo) queue.grantSendMessages(stateMachine);
  return { stateMachine, invoked };
}
