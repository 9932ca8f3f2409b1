// The operator tool against a deployed stage (`ops --stage …`), end to end: the stages' outputs (a file as
// `cdk deploy --outputs-file` writes it, or DescribeStacks) name the running local stack's tables, S3 twin
// buckets and pages in place of the stage's, an SQS twin's queue in place of its delivery queue, and state
// machine ARNs answered by a Step Functions twin over the local workflow runner (test/support/stage-twins.ts).
// The tool reaches them with the SDK's default chain (AWS_ENDPOINT_URL_* and credentials from the
// environment) and each command does what it does locally. The tool runs in this process with the
// operator's environment (opsWithEnv); two checks run it as its own process, as an operator would.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { LOCAL_IDENTITY_TABLE, localTableName } from '../../lambdas/adapters/dynamodb/table-schema';
import { ENVIRONMENTS, type Environment } from '../../lambdas/core/model';
import { serviceStackName } from '../../lib/environments';
import { PORT_OFFSETS } from '../../local/config';
import { type LocalSqs, startLocalSqs } from '../../local/emulators/sqs';
import { localBucket } from '../../local/wiring';
import { bearer, call, contractParts, exchange, expectError, upload } from '../support/api-client';
import { eventually } from '../support/eventually';
import {
  type Bootstrap,
  devBootstrap,
  ops,
  opsProcessWithEnv,
  opsWithEnv,
  type RunningStack,
  useLocalStack,
} from '../support/local-stack';
import { contractPdf } from '../support/pdfs';
import { isPublished, publication, waitForReview } from '../support/pipeline';
import { type StageTwins, startStageTwins } from '../support/stage-twins';

let stack: RunningStack;
let boot: Bootstrap;
let sqs: LocalSqs;
let outputsFile: string;
const twins = {} as Record<Environment, StageTwins>;
const queues = {} as Record<Environment, string>;

// DELAY_SCALE shortens the pipeline's waits, as in pipeline.test.ts.
useLocalStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off', DELAY_SCALE: '100' } },
);

const stageName = (environment: Environment) => (environment === 'sandbox' ? 'Sandbox' : 'Production');
const arn = (environment: Environment, kind: string) =>
  `arn:aws:states:eu-west-1:111111111111:stateMachine:${environment}-${kind}`;

/** What `cdk deploy --all --outputs-file` writes for both stages, pointed at the local stack and twins. */
const stageOutputs = (): Record<string, Record<string, string>> =>
  Object.fromEntries(
    ENVIRONMENTS.flatMap((environment) => [
      [
        serviceStackName(environment, 'stateful'),
        { TableName: localTableName(environment), BlobBucketName: localBucket(environment) },
      ],
      [
        serviceStackName(environment, 'stateless'),
        {
          PagesBaseUrl: stack.pages[environment],
          SandboxBaseUrl: stack.sandbox,
          ProductionBaseUrl: stack.production,
          ContractStateMachineArn: arn(environment, 'contract'),
          ReviewStateMachineArn: arn(environment, 'review'),
          AcceptanceStateMachineArn: arn(environment, 'acceptance'),
          DeliveryStateMachineArn: arn(environment, 'delivery'),
          DeliveryQueueUrl: queues[environment] as string,
          OperatorPolicyArn: `arn:aws:iam::111111111111:policy/${environment}-operators`,
        },
      ],
      [serviceStackName(environment, 'shared'), { IdentityTableName: LOCAL_IDENTITY_TABLE }],
    ]),
  );

const dynamoUrl = () => `http://127.0.0.1:${stack.portBase + PORT_OFFSETS.dynamoDb}`;

/** An operator's shell: AWS settings only (no PORT_BASE or DATA_DIR), its endpoints the twins'. */
const awsEnv = (environment: Environment, overrides: Record<string, string | undefined> = {}) => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (name.startsWith('AWS_') || name === 'PORT_BASE' || name === 'DATA_DIR') delete env[name];
  Object.assign(env, {
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'operator',
    AWS_SECRET_ACCESS_KEY: 'operator-secret',
    // Nothing of the machine's own AWS set-up: no profile files, no instance metadata.
    AWS_CONFIG_FILE: '/nonexistent/aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ENDPOINT_URL_DYNAMODB: dynamoUrl(),
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${stack.portBase + PORT_OFFSETS.blobStore}`,
    AWS_ENDPOINT_URL_SQS: sqs.endpoint,
    AWS_ENDPOINT_URL_SFN: twins[environment].endpoint,
    AWS_ENDPOINT_URL_CLOUDFORMATION: twins[environment].endpoint,
  });
  for (const [name, value] of Object.entries(overrides))
    if (value === undefined) delete env[name];
    else env[name] = value;
  return env;
};

/** `ops --stage <environment's stage> --outputs <file> …`. */
const opsAt = (environment: Environment, ...args: string[]) =>
  opsWithEnv(awsEnv(environment), '--stage', stageName(environment), '--outputs', outputsFile, ...args);

beforeAll(async () => {
  boot = await devBootstrap(stack);
  sqs = await startLocalSqs(0);
  for (const environment of ENVIRONMENTS) {
    const { url } = sqs.createQueue(`${environment}-deliveries`, { visibilityTimeoutSeconds: 30 }).queue;
    // The twin names its queues on a host of its own (sqs.<region>.127.0.0.1), which is no URL to a
    // URL parser: the same queue at the twin's address, as a deployed queue's URL is at SQS's.
    queues[environment] = url.replace(/^http:\/\/[^/]+/, sqs.endpoint);
  }
  // Each stage's region answers only for its own stacks, as each account would.
  const outputs = stageOutputs();
  for (const environment of ENVIRONMENTS) {
    const own = Object.fromEntries(
      Object.entries(outputs).filter(([name]) => name.includes(`-${environment}-`)),
    );
    twins[environment] = await startStageTwins(own, dynamoUrl(), environment);
  }
  outputsFile = `${stack.dataDir}/cdk-outputs.json`;
  await writeFile(outputsFile, JSON.stringify(outputs, null, 2));
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(twins).map((twin) => twin.stop()));
  await sqs?.stop();
});

describe('errors: one line, with the fix', () => {
  const oneLine = (result: { code: number; stdout: string; stderr: string }) => {
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    return result.stderr.trim();
  };

  test('an unknown stage', async () => {
    const result = await opsWithEnv(awsEnv('sandbox'), '--stage', 'Staging', 'budget', boot.organisation_id);
    expect(oneLine(result)).toBe('ops: unknown stage Staging: give --stage Sandbox or --stage Production');
  });

  test('no credentials in the default chain', async () => {
    const env = awsEnv('sandbox', { AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined });
    // A process of its own: nothing of this one's set-up reaches the chain.
    const result = await opsProcessWithEnv(env, '--stage', 'Sandbox', 'budget', boot.organisation_id);
    expect(oneLine(result)).toMatch(
      /^ops: no AWS credentials found: set AWS_PROFILE \(after aws sso login\) or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/,
    );
  });

  test('no region', async () => {
    const env = awsEnv('sandbox', { AWS_REGION: undefined, AWS_DEFAULT_REGION: undefined });
    const result = await opsWithEnv(env, '--stage', 'Sandbox', 'budget', boot.organisation_id);
    expect(oneLine(result)).toBe("ops: no AWS region: set AWS_REGION to the stage's region");
  });

  test('the stage’s stack not found where the credentials point', async () => {
    // The production stage asked in the sandbox's region, which has only the sandbox's stacks.
    const env = awsEnv('sandbox');
    const result = await opsWithEnv(env, '--stage', 'Production', 'budget', boot.organisation_id);
    expect(oneLine(result)).toBe(
      'ops: stack contract-service-production-stateful not found in eu-west-1: deploy the stage (README, Deploying), or set AWS_REGION and AWS_PROFILE to where it is deployed',
    );
  });

  test('an outputs file that is missing, or holds no outputs of the stage', async () => {
    const missing = await opsWithEnv(
      awsEnv('sandbox'),
      '--stage',
      'Sandbox',
      '--outputs',
      'nope.json',
      'budget',
      'org_x',
    );
    expect(oneLine(missing)).toBe('ops: --outputs nope.json: there is no such file');
    const other = `${stack.dataDir}/other-outputs.json`;
    await writeFile(other, JSON.stringify({ 'some-other-stack': { TableName: 't' } }));
    const wrong = await opsWithEnv(
      awsEnv('sandbox'),
      '--stage',
      'Sandbox',
      '--outputs',
      other,
      'budget',
      'org_x',
    );
    expect(oneLine(wrong)).toBe(
      `ops: --outputs ${other} has no outputs of contract-service-sandbox-stateful: write it with npx cdk deploy --all --outputs-file ${other}`,
    );
  });

  test('the local-only commands, and another stage’s environment, are refused', async () => {
    for (const command of ['dev-bootstrap', 'listen', 'trigger'])
      expect(oneLine(await opsAt('sandbox', command))).toBe(
        `ops: ${command} works beside the local stack only: run it without --stage`,
      );
    expect(oneLine(await opsAt('sandbox', 'api-key-list', '--environment', 'production'))).toBe(
      "ops: --environment production is not this stage's (sandbox): use --stage Production",
    );
    expect(oneLine(await opsAt('production', 'budget', boot.organisation_id))).toBe(
      'ops: sandbox budgets are kept in the sandbox environment: use --stage Sandbox',
    );
  });
});

test('set-budget is read back, by the deployed tool and the local one (the same table)', async () => {
  const set = await opsAt('sandbox', 'set-budget', boot.organisation_id, '7');
  expect(set.code).toBe(0);
  const read = await opsAt('sandbox', 'budget', boot.organisation_id);
  expect(read.json).toMatchObject({ total: 7 });
  expect((await ops(stack, 'budget', boot.organisation_id)).json).toEqual(read.json);
  // The same through DescribeStacks (no --outputs): the stage's region answers with its outputs; as the
  // operator runs it, a process of its own.
  const described = await opsProcessWithEnv(
    awsEnv('sandbox'),
    '--stage',
    'Sandbox',
    'budget',
    boot.organisation_id,
  );
  expect(described.json).toEqual(read.json);
  const unknown = await opsAt('sandbox', 'budget', 'org_nobody');
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toMatch(/not_found/);
});

test('api-key-create makes a key that works at the stage’s API; api-key-revoke stops it', async () => {
  const created = await opsAt('sandbox', 'api-key-create', '--name', 'deployed');
  expect(created.code).toBe(0);
  const key = created.json as { id: string; key: string; name: string };
  expect(key.name).toBe('deployed');
  expect(await exchange(stack.sandbox, key.key)).toEqual(expect.any(String));
  const listed = await opsAt('sandbox', 'api-key-list');
  expect((listed.json as unknown as { data: Array<{ id: string }> }).data.map((k) => k.id)).toContain(key.id);

  const revoked = await opsAt('sandbox', 'api-key-revoke', key.id);
  expect(revoked).toMatchObject({ code: 0, json: { id: key.id, revoked_at: expect.any(String) } });
  expectError(
    await call(`${stack.sandbox}/v1/token`, { method: 'POST', headers: bearer(key.key) }),
    401,
    'api_key_invalid',
  );
  // A production key is not this stage's to revoke.
  const production = await ops(stack, 'api-key-create', '--environment', 'production');
  const other = await opsAt('sandbox', 'api-key-revoke', production.json?.id as string);
  expect(other.stderr.trim()).toBe(`ops: no API key ${production.json?.id} in the sandbox environment`);
});

test('webhook endpoint commands: deployed rules, and a test event handed on through the delivery queue', async () => {
  // Deployed, an endpoint must be public https: the local stack's loopback allowance does not apply.
  const loopback = await opsAt(
    'sandbox',
    'webhook-endpoint-create',
    '--url',
    'http://127.0.0.1:9/hook',
    '--events',
    'test',
  );
  expect(loopback.code).toBe(1);
  const created = await opsAt(
    'sandbox',
    'webhook-endpoint-create',
    '--url',
    'https://hooks.example.com/contracts',
    '--events',
    'contract-reviews.publication.published',
  );
  expect(created.code).toBe(0);
  const { id, secret } = created.json as { id: string; secret: string };
  expect(secret).toMatch(/^whsec_/);
  const listed = await opsAt('sandbox', 'webhook-endpoint-list');
  expect(JSON.stringify(listed.json)).toContain(id);

  const disabled = await opsAt('sandbox', 'webhook-endpoint-update', id, '--disable');
  expect(disabled.json).toMatchObject({ id, enabled: false });
  const enabled = await opsAt('sandbox', 'webhook-endpoint-update', id, '--enable');
  expect(enabled.json).toMatchObject({ id, enabled: true });
  const rotated = await opsAt('sandbox', 'webhook-endpoint-rotate-secret', id);
  expect(rotated.json).toMatchObject({ id, secret: expect.stringMatching(/^whsec_/) });
  expect(rotated.json?.secret).not.toBe(secret);

  const before = sqs.depth('sandbox-deliveries');
  const tested = await opsAt('sandbox', 'webhook-test', id);
  expect(tested.code).toBe(0);
  const messageId = tested.json?.id as string;
  expect(messageId).toMatch(/^msg_/);
  // Handed on as the deployed functions hand deliveries on: a message on the stage's delivery queue.
  const after = sqs.depth('sandbox-deliveries');
  expect(after.ready + after.delayed + after.inFlight).toBe(
    before.ready + before.delayed + before.inFlight + 1,
  );
  const message = await opsAt('sandbox', 'webhook-message', messageId);
  expect(message.json).toMatchObject({ id: messageId });

  const deleted = await opsAt('sandbox', 'webhook-endpoint-delete', id);
  expect(deleted.json).toEqual({ id, deleted: true });
  expect(JSON.stringify((await opsAt('sandbox', 'webhook-endpoint-list')).json)).not.toContain(id);
});

describe('onboarding', () => {
  const openSession = async (base: string, apiKey: string) => {
    const token = await exchange(base, apiKey);
    const session = await call(`${base}/v1/clients/onboardings/sessions`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ reference: `signup-${randomUUID()}` }),
    });
    expect(session.status).toBe(200);
    return { id: session.body.id as string, token };
  };
  const buyersFile = async () => {
    const file = `${stack.dataDir}/buyers-${randomUUID()}.json`;
    await writeFile(
      file,
      JSON.stringify([{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }]),
    );
    return file;
  };

  test('production: accept-onboarding accepts a submitted sign-up and its client appears', async () => {
    const { id, token } = await openSession(stack.production, boot.keys.production);
    const submitted = await opsAt('production', 'submit-onboarding', id, '--buyers', await buyersFile());
    expect(submitted.json).toMatchObject({ id, state: 'submitted' });
    const accepted = await opsAt('production', 'accept-onboarding', id);
    expect(accepted.code).toBe(0);
    expect(accepted.json).toMatchObject({ id, state: 'accepted', accepted_at: expect.any(String) });
    const clients = (accepted.json as { clients: Array<{ id: string }> }).clients;
    expect(clients).toHaveLength(1);
    const client = await call(`${stack.production}/v1/clients/${clients[0]?.id}`, { headers: bearer(token) });
    expect(client.status).toBe(200);
    expect(client.body).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
  });

  test('sandbox: a submission starts its acceptance run on the stage’s state machine, and the run accepts it', async () => {
    const { id, token } = await openSession(stack.sandbox, boot.keys.sandbox);
    const submitted = await opsAt('sandbox', 'submit-onboarding', id, '--buyers', await buyersFile());
    expect(submitted.json).toMatchObject({ id, state: 'submitted' });
    const start = twins.sandbox.stepFunctionsCalls.find(
      (c) => c.action === 'StartExecution' && String(c.input.input).includes(id),
    );
    expect(start?.input.stateMachineArn).toBe(arn('sandbox', 'acceptance'));
    // The local workflow runner, in place of the state machine, runs the recorded run.
    await eventually(
      () => call(`${stack.sandbox}/v1/clients/onboardings/${id}`, { headers: bearer(token) }),
      (answer) => answer.body?.state === 'accepted',
      { what: `onboarding ${id} accepted by its run`, timeoutMs: 120_000 },
    );
  }, 150_000);
});

test('publish-review ends the lawyer’s wait and the review is published; withdraw takes it down; request-history lists the calls', async () => {
  const token = await exchange(stack.production, boot.keys.production);
  const answer = await upload(
    `${stack.production}/v1/contract-reviews`,
    token,
    contractParts(await contractPdf(2), {
      external_reference: `deployed-${randomUUID()}`,
      product: 'legal_information',
      review: 'lawyer',
    }),
  );
  expect(answer.status).toBe(202);
  const id = answer.body.id as string;
  await waitForReview(stack.production, token, id, (r) => r.lawyer_review.state === 'requested', 120_000);

  const text = `${stack.dataDir}/review-${randomUUID()}.md`;
  await writeFile(text, '# Review\n\nReviewed by the deployed operator tool.\n');
  const published = await opsAt('production', 'publish-review', id, '--text', text);
  expect(published.code).toBe(0);
  expect(published.json?.lawyer_review).toMatchObject({ state: 'completed' });
  // The wait was ended through Step Functions (SendTaskSuccess), and the runner went on to publish.
  expect(twins.production.stepFunctionsCalls.map((c) => c.action)).toContain('SendTaskSuccess');
  const live = await waitForReview(stack.production, token, id, isPublished('review'), 120_000);
  const url = publication(live, 'review')?.url as string;
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Reviewed by the deployed operator tool.');

  const withdrawn = await opsAt('production', 'withdraw', id, '--channel', 'review');
  expect(withdrawn.code).toBe(0);
  expect(publication(withdrawn.json as never, 'review')).toMatchObject({ state: 'withdrawn', url });
  expect((await fetch(url)).status).toBe(410);

  const history = await eventually(
    () => opsAt('production', 'request-history', '--method', 'POST', '--path-prefix', '/v1/contract-reviews'),
    (result) => JSON.stringify(result.json ?? {}).includes('/v1/contract-reviews'),
    { what: 'the upload in the request history' },
  );
  expect((history.json as unknown as { data: unknown[] }).data.length).toBeGreaterThan(0);
}, 300_000);
