// test -> the two AWS services the operator tool calls against a deployed stage that the local stack has
// no twin of, as one HTTP server speaking their wire protocols to the SDK clients the tool uses (a fake
// only at those adapters' edge): Step Functions over the local workflow runner (a run the tool starts is
// recorded in the table already, where the running stack's runner finds it; a wait it ends is settled in
// the table, where the runner's waiting state takes it: `LocalWaits`), and CloudFormation's
// DescribeStacks (the stages' outputs, or "does not exist").
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb';
import { localTableName } from '../../lambdas/adapters/dynamodb/table-schema';
import type { Environment } from '../../lambdas/core/model';
import { LocalWaits } from '../../local/emulators/step-functions-waits';

/** One call the tool made: the Step Functions action and its input. */
export interface StepFunctionsCall {
  action: string;
  input: Record<string, unknown>;
}

export interface StageTwins {
  endpoint: string;
  /** Every Step Functions call so far, in order. */
  stepFunctionsCalls: StepFunctionsCall[];
  stop(): Promise<void>;
}

const bodyOf = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const CLOUDFORMATION = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';

const describedStack = (name: string, outputs: Record<string, string>) =>
  `<DescribeStacksResponse xmlns="${CLOUDFORMATION}"><DescribeStacksResult><Stacks><member>` +
  `<StackName>${xml(name)}</StackName><StackId>arn:aws:cloudformation:eu-west-1:111111111111:stack/${xml(name)}/1</StackId>` +
  '<CreationTime>2026-11-26T00:00:00Z</CreationTime><StackStatus>UPDATE_COMPLETE</StackStatus><Outputs>' +
  Object.entries(outputs)
    .map(
      ([key, value]) =>
        `<member><OutputKey>${xml(key)}</OutputKey><OutputValue>${xml(value)}</OutputValue></member>`,
    )
    .join('') +
  '</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></DescribeStacksResponse>';

const noSuchStack = (name: string) =>
  `<ErrorResponse xmlns="${CLOUDFORMATION}"><Error><Type>Sender</Type><Code>ValidationError</Code>` +
  `<Message>Stack with id ${xml(name)} does not exist</Message></Error><RequestId>1</RequestId></ErrorResponse>`;

/**
 * Starts the twins of one stage's region: `stacks` are the deployed stacks' outputs by stack name (as
 * `cdk deploy --outputs-file` writes them), `dynamoUrl` the running stack's DynamoDB Local, whose table of
 * `environment` the stage's waits are settled in.
 */
export const startStageTwins = async (
  stacks: Record<string, Record<string, string>>,
  dynamoUrl: string,
  environment: Environment,
): Promise<StageTwins> => {
  const doc = createDocumentClient(dynamoUrl);
  const stepFunctionsCalls: StepFunctionsCall[] = [];
  const server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    const target = request.headers['x-amz-target'];
    if (typeof target === 'string' && target.startsWith('AWSStepFunctions.')) {
      const action = target.slice('AWSStepFunctions.'.length);
      const input = JSON.parse(body) as Record<string, unknown>;
      stepFunctionsCalls.push({ action, input });
      let answer: object;
      if (action === 'StartExecution') {
        answer = { executionArn: `${input.stateMachineArn}:${input.name}`, startDate: Date.now() / 1000 };
      } else if (action === 'SendTaskSuccess') {
        const token = String(input.taskToken);
        await new LocalWaits(doc, localTableName(environment)).settle(token, {
          succeeded: true,
          output: JSON.parse(String(input.output)),
        });
        answer = {};
      } else {
        response.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
        response.end(JSON.stringify({ __type: 'UnknownOperationException', message: action }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify(answer));
      return;
    }
    const form = new URLSearchParams(body);
    if (form.get('Action') === 'DescribeStacks') {
      const name = form.get('StackName') ?? '';
      const outputs = stacks[name];
      response.writeHead(outputs ? 200 : 400, { 'content-type': 'text/xml' });
      response.end(outputs ? describedStack(name, outputs) : noSuchStack(name));
      return;
    }
    response.writeHead(400, { 'content-type': 'text/plain' });
    response.end(`no twin of ${target ?? form.get('Action')}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stepFunctionsCalls,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
