// unit -> the rotation of the origin secret (lambdas/workers/origin-secret-rotation.ts): the four steps
// over fake ports (a secret's versions and labels, the listener rule, the distribution's header), each
// repeated as Secrets Manager may repeat it; then its ports over the real SDK clients
// (adapters/origin-secret-ports.ts), whose HTTP handler is a fake.
import { sdkRotationPorts } from '../../lambdas/adapters/origin-secret-ports';
import { acceptedValues, type RotationPorts, SECRET_STAGES } from '../../lambdas/core/origin-secret-ports';
import {
  DEPLOYED_CHECK_MS,
  DEPLOYED_CHECKS,
  RotationNotReady,
  rotateOriginSecret,
} from '../../lambdas/workers/origin-secret-rotation';
import { type Answer, bodyText, fakeSdkEdge } from '../support/sdk-edge';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:OriginVerify-AbCdEf';
const { current: CURRENT, pending: PENDING, previous: PREVIOUS } = SECRET_STAGES;

/** A secret, a listener rule and a distribution in memory, as the AWS calls leave them. */
const fakes = () => {
  const versions = new Map<string, { value: string | null; stages: string[] }>([
    ['v1', { value: 'first-value', stages: [CURRENT] }],
  ]);
  const state = {
    rotationEnabled: true,
    /** The values the rule admits, after each change. */
    rules: [['first-value']] as string[][],
    header: 'first-value',
    deployed: true,
    /** How many more `sent()` reads see the distribution in progress after a change. */
    inProgressReads: 0,
    sends: 0,
    pauses: [] as number[],
    randoms: 0,
  };
  const ports: RotationPorts = {
    secret: {
      arn: SECRET_ARN,
      versions: async () => ({
        rotationEnabled: state.rotationEnabled,
        stages: Object.fromEntries([...versions].map(([id, { stages }]) => [id, [...stages]])),
      }),
      value: async (stage, versionId) => {
        const found = [...versions].find(
          ([id, version]) => version.stages.includes(stage) && (versionId === undefined || id === versionId),
        );
        return found?.[1].value ?? null;
      },
      randomValue: async () => `random-${++state.randoms}`,
      putPending: async (versionId, value) => {
        const existing = versions.get(versionId);
        if (existing?.value != null && existing.value !== value) throw new Error('ResourceExistsException');
        for (const version of versions.values())
          version.stages = version.stages.filter((stage) => stage !== PENDING);
        versions.set(versionId, { value, stages: [PENDING] });
      },
      makeCurrent: async (versionId, currentVersionId) => {
        const moving = versions.get(versionId);
        const from = versions.get(currentVersionId);
        if (!moving || !from?.stages.includes(CURRENT)) throw new Error('InvalidParameterException');
        for (const version of versions.values())
          version.stages = version.stages.filter((stage) => stage !== PREVIOUS);
        from.stages = [PREVIOUS];
        // (Secrets Manager drops the pending label when the rotation ends: the same here, at once.)
        moving.stages = [CURRENT];
      },
    },
    rule: { accept: async (values) => void state.rules.push([...values]) },
    distribution: {
      sent: async () => {
        const deployed = state.inProgressReads === 0;
        if (!deployed) state.inProgressReads--;
        return { value: state.header, deployed };
      },
      send: async (value) => {
        if (state.header === value) return;
        state.sends++;
        state.header = value;
        state.inProgressReads = 2;
      },
    },
    pause: async (milliseconds) => void state.pauses.push(milliseconds),
  };
  return { versions, state, ports };
};

const event = (Step: string, token = 'v2', SecretId = SECRET_ARN) => ({
  Step,
  SecretId,
  ClientRequestToken: token,
});

/** Secrets Manager's part before createSecret: a version `token` labelled pending, with no value yet. */
const startRotation = (versions: ReturnType<typeof fakes>['versions'], token = 'v2') =>
  versions.set(token, { value: null, stages: [PENDING] });

describe('rotateOriginSecret', () => {
  it('walks the four steps: a new value, the rule admitting both, CloudFront sending it once deployed, then current alone', async () => {
    const { versions, state, ports } = fakes();
    startRotation(versions);
    await rotateOriginSecret(event('createSecret'), ports);
    expect(versions.get('v2')).toEqual({ value: 'random-1', stages: [PENDING] });

    await rotateOriginSecret(event('setSecret'), ports);
    expect(state.rules.at(-1)).toEqual(['first-value', 'random-1']);
    expect(state.header).toBe('random-1');

    await rotateOriginSecret(event('testSecret'), ports);
    // Two reads in progress, a pause after each, then deployed.
    expect(state.pauses).toEqual([DEPLOYED_CHECK_MS, DEPLOYED_CHECK_MS]);

    await rotateOriginSecret(event('finishSecret'), ports);
    expect(versions.get('v2')?.stages).toEqual([CURRENT]);
    expect(versions.get('v1')?.stages).toEqual([PREVIOUS]);
    expect(state.rules.at(-1)).toEqual(['random-1']);
    await expect(acceptedValues(ports.secret)).resolves.toEqual(['random-1', 'first-value']);
  });

  it('rotates a secret no listener rule checks (origin authorizers): the same steps, less the rule’s', async () => {
    const { versions, state, ports } = fakes();
    const { rule: _rule, ...withoutRule } = ports;
    startRotation(versions);
    for (const step of ['createSecret', 'setSecret', 'testSecret', 'finishSecret'])
      await rotateOriginSecret(event(step), withoutRule);
    expect(state.header).toBe('random-1');
    expect(versions.get('v2')?.stages).toEqual([CURRENT]);
    expect(state.rules).toEqual([['first-value']]);
  });

  it('repeats each step without a second value, a second change or a second label move', async () => {
    const { versions, state, ports } = fakes();
    startRotation(versions);
    await rotateOriginSecret(event('createSecret'), ports);
    await rotateOriginSecret(event('createSecret'), ports);
    expect(state.randoms).toBe(1);
    await rotateOriginSecret(event('setSecret'), ports);
    await rotateOriginSecret(event('setSecret'), ports);
    expect(state.sends).toBe(1);
    await rotateOriginSecret(event('testSecret'), ports);
    await rotateOriginSecret(event('finishSecret'), ports);
    await rotateOriginSecret(event('finishSecret'), ports);
    expect(versions.get('v1')?.stages).toEqual([PREVIOUS]);
    expect(versions.get('v2')?.stages).toEqual([CURRENT]);
    expect(state.rules.slice(-2)).toEqual([['random-1'], ['random-1']]);
    // A step of a version already current (a retried event after finishing) changes nothing.
    const changes = state.rules.length;
    await rotateOriginSecret(event('setSecret'), ports);
    expect([state.rules.length, state.sends, state.header]).toEqual([changes, 1, 'random-1']);
  });

  it('fails testSecret, for Secrets Manager to retry, while CloudFront is not deployed after its checks, or sends another value', async () => {
    const { versions, state, ports } = fakes();
    versions.set('v2', { value: 'pending-value', stages: [PENDING] });
    await rotateOriginSecret(event('setSecret'), ports);
    state.inProgressReads = DEPLOYED_CHECKS + 5;
    await expect(rotateOriginSecret(event('testSecret'), ports)).rejects.toThrow(RotationNotReady);
    expect(state.pauses).toHaveLength(DEPLOYED_CHECKS - 1);
    // A deployment resolved the header to the current value again.
    state.inProgressReads = 0;
    state.header = 'first-value';
    await expect(rotateOriginSecret(event('testSecret'), ports)).rejects.toThrow(
      /does not send the pending value/,
    );
    expect(versions.get('v2')?.stages).toEqual([PENDING]);
  });

  it('refuses another secret, a rotation switched off, an unknown version, and a version neither pending nor current', async () => {
    const { versions, state, ports } = fakes();
    versions.set('v0', { value: 'old', stages: [PREVIOUS] });
    await expect(
      rotateOriginSecret(event('createSecret', 'v2', `${SECRET_ARN}-other`), ports),
    ).rejects.toThrow(/not the origin secret/);
    await expect(rotateOriginSecret(event('createSecret', 'v9'), ports)).rejects.toThrow(/not a version/);
    await expect(rotateOriginSecret(event('setSecret', 'v0'), ports)).rejects.toThrow(/not pending/);
    await expect(rotateOriginSecret(event('finishSecret', 'v0'), ports)).rejects.toThrow(
      /neither pending nor current/,
    );
    await expect(
      rotateOriginSecret({ Step: 'guessSecret', SecretId: SECRET_ARN, ClientRequestToken: 'v2' }, ports),
    ).rejects.toThrow();
    state.rotationEnabled = false;
    startRotation(versions);
    await expect(rotateOriginSecret(event('createSecret'), ports)).rejects.toThrow(/not enabled/);
    expect(state.rules).toEqual([['first-value']]);
    expect(state.header).toBe('first-value');
  });
});

const RULE_ARN =
  'arn:aws:elasticloadbalancing:eu-west-1:123456789012:listener-rule/app/ingest/50dc6c495c0c9188/f2f7dc8efc522ab2/9683b2d02a6cabee';
const DISTRIBUTION_ID = 'E2ABCDEF123456';

/** The rotation's ports over the real SDK clients, their HTTP handler answering with `answers` in turn. */
const overSdk = async (...answers: Answer[]) => {
  const { requests, options } = fakeSdkEdge(...answers);
  const config = {
    ORIGIN_VERIFY_SECRET_ARN: SECRET_ARN,
    ORIGIN_VERIFY_HEADER: 'x-origin-verify',
    INGEST_RULE_ARN: RULE_ARN,
    DISTRIBUTION_IDS: DISTRIBUTION_ID,
    AWS_REGION: 'eu-west-1',
  };
  return { requests, ports: await sdkRotationPorts(config, options) };
};

/** As `overSdk`, for a secret only origin authorizers check: no rule, two distributions sending it. */
const SECOND_DISTRIBUTION_ID = 'E3ZYXWV987654';
const overSdkWithoutRule = async (...answers: Answer[]) => {
  const { requests, options } = fakeSdkEdge(...answers);
  const config = {
    ORIGIN_VERIFY_SECRET_ARN: SECRET_ARN,
    ORIGIN_VERIFY_HEADER: 'x-origin-verify',
    DISTRIBUTION_IDS: `${DISTRIBUTION_ID},${SECOND_DISTRIBUTION_ID}`,
    AWS_REGION: 'eu-west-1',
  };
  return { requests, ports: await sdkRotationPorts(config, options) };
};

const json = (body: unknown): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/x-amz-json-1.1' },
  body: JSON.stringify(body),
});
const xml = (body: string, headers: Record<string, string> = {}): Answer => ({
  status: 200,
  headers: { 'content-type': 'text/xml', ...headers },
  body,
});

/** A distribution's origins as CloudFront's XML has them: the API's (no header) and the ingest's. */
const origins = (value: string) =>
  `<Origins><Quantity>2</Quantity><Items><Origin><Id>api</Id><DomainName>api.example.com</DomainName><CustomHeaders><Quantity>0</Quantity></CustomHeaders></Origin><Origin><Id>ingest</Id><DomainName>ingest.internal</DomainName><CustomHeaders><Quantity>1</Quantity><Items><OriginCustomHeader><HeaderName>x-origin-verify</HeaderName><HeaderValue>${value}</HeaderValue></OriginCustomHeader></Items></CustomHeaders><VpcOriginConfig><VpcOriginId>vo_123</VpcOriginId></VpcOriginConfig></Origin></Items></Origins>`;
const config = (value: string) =>
  `<DistributionConfig xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><CallerReference>ref</CallerReference><Comment>contract-service</Comment><Enabled>true</Enabled>${origins(value)}</DistributionConfig>`;

describe('sdkRotationPorts', () => {
  it('reads the versions and values of the secret, a missing label as null, and stores a pending value under the token', async () => {
    const { requests, ports } = await overSdk(
      json({ RotationEnabled: true, VersionIdsToStages: { v1: ['AWSCURRENT'], v2: ['AWSPENDING'] } }),
      json({ SecretString: 'first-value' }),
      {
        status: 400,
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amzn-errortype': 'ResourceNotFoundException',
        },
        body: '{"Message":"m"}',
      },
      json({ RandomPassword: 'r'.repeat(48) }),
      json({}),
      json({}),
    );
    await expect(ports.secret.versions()).resolves.toEqual({
      rotationEnabled: true,
      stages: { v1: ['AWSCURRENT'], v2: ['AWSPENDING'] },
    });
    await expect(ports.secret.value(CURRENT)).resolves.toBe('first-value');
    await expect(ports.secret.value(PENDING, 'v2')).resolves.toBeNull();
    await expect(ports.secret.randomValue()).resolves.toBe('r'.repeat(48));
    await ports.secret.putPending('v2', 'new-value');
    await ports.secret.makeCurrent('v2', 'v1');
    const calls = requests.map((request) => [
      request.headers['x-amz-target'],
      JSON.parse(bodyText(request.body)),
    ]);
    expect(calls).toEqual([
      ['secretsmanager.DescribeSecret', { SecretId: SECRET_ARN }],
      ['secretsmanager.GetSecretValue', { SecretId: SECRET_ARN, VersionStage: 'AWSCURRENT' }],
      [
        'secretsmanager.GetSecretValue',
        { SecretId: SECRET_ARN, VersionStage: 'AWSPENDING', VersionId: 'v2' },
      ],
      ['secretsmanager.GetRandomPassword', { PasswordLength: 48, ExcludePunctuation: true }],
      [
        'secretsmanager.PutSecretValue',
        {
          SecretId: SECRET_ARN,
          ClientRequestToken: 'v2',
          SecretString: 'new-value',
          VersionStages: ['AWSPENDING'],
        },
      ],
      [
        'secretsmanager.UpdateSecretVersionStage',
        {
          SecretId: SECRET_ARN,
          VersionStage: 'AWSCURRENT',
          MoveToVersionId: 'v2',
          RemoveFromVersionId: 'v1',
        },
      ],
    ]);
  });

  it('sets the rule’s header condition to exactly the values given (ModifyRule)', async () => {
    const { requests, ports } = await overSdk(
      xml('<ModifyRuleResponse><ModifyRuleResult><Rules/></ModifyRuleResult></ModifyRuleResponse>'),
    );
    await ports.rule?.accept(['old-value', 'new-value', 'new-value']);
    expect(requests[0]?.hostname).toBe('elasticloadbalancing.eu-west-1.amazonaws.com');
    expect(Object.fromEntries(new URLSearchParams(bodyText(requests[0]?.body)))).toEqual({
      Action: 'ModifyRule',
      Version: '2015-12-01',
      RuleArn: RULE_ARN,
      'Conditions.member.1.Field': 'http-header',
      'Conditions.member.1.HttpHeaderConfig.HttpHeaderName': 'x-origin-verify',
      'Conditions.member.1.HttpHeaderConfig.Values.member.1': 'old-value',
      'Conditions.member.1.HttpHeaderConfig.Values.member.2': 'new-value',
    });
  });

  it('reads the header the distribution sends and whether it is deployed', async () => {
    const distribution = (status: string, value: string) =>
      xml(
        `<Distribution xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Id>${DISTRIBUTION_ID}</Id><Status>${status}</Status>${config(value)}</Distribution>`,
      );
    const { requests, ports } = await overSdk(
      distribution('InProgress', 'new-value'),
      distribution('Deployed', 'new-value'),
    );
    await expect(ports.distribution.sent()).resolves.toEqual({ value: 'new-value', deployed: false });
    await expect(ports.distribution.sent()).resolves.toEqual({ value: 'new-value', deployed: true });
    expect(requests[0]).toMatchObject({ method: 'GET', path: `/2020-05-31/distribution/${DISTRIBUTION_ID}` });
  });

  it('changes only the ingest origin’s header, under the ETag it read, and not at all when it is already sent', async () => {
    const { requests, ports } = await overSdk(
      xml(config('old-value'), { etag: 'E1' }),
      xml(
        `<Distribution><Id>${DISTRIBUTION_ID}</Id><Status>InProgress</Status>${config('new-value')}</Distribution>`,
        {
          etag: 'E2',
        },
      ),
      xml(config('new-value'), { etag: 'E2' }),
    );
    await ports.distribution.send('new-value');
    await ports.distribution.send('new-value');
    expect(
      requests.map((request) => [request.method, request.path, request.headers['if-match'] ?? null]),
    ).toEqual([
      ['GET', `/2020-05-31/distribution/${DISTRIBUTION_ID}/config`, null],
      ['PUT', `/2020-05-31/distribution/${DISTRIBUTION_ID}/config`, 'E1'],
      ['GET', `/2020-05-31/distribution/${DISTRIBUTION_ID}/config`, null],
    ]);
    const sent = bodyText(requests[1]?.body);
    expect(sent).toContain('<HeaderName>x-origin-verify</HeaderName><HeaderValue>new-value</HeaderValue>');
    expect(sent).not.toContain('old-value');
    expect(sent).toContain('<Id>api</Id>');
    expect(sent).toContain('<VpcOriginId>vo_123</VpcOriginId>');
  });

  it('refuses to change a distribution with no origin sending the header', async () => {
    const { requests, ports } = await overSdk(
      xml(
        '<DistributionConfig><CallerReference>ref</CallerReference><Comment>c</Comment><Enabled>true</Enabled><Origins><Quantity>0</Quantity></Origins></DistributionConfig>',
        { etag: 'E1' },
      ),
    );
    await expect(ports.distribution.send('new-value')).rejects.toThrow(/no origin sending x-origin-verify/);
    expect(requests).toHaveLength(1);
  });

  it('without a rule, reads every distribution (deployed when all are, a value when all agree) and changes each', async () => {
    const distribution = (id: string, status: string, value: string) =>
      xml(
        `<Distribution xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Id>${id}</Id><Status>${status}</Status>${config(value)}</Distribution>`,
      );
    const { requests, ports } = await overSdkWithoutRule(
      distribution(DISTRIBUTION_ID, 'Deployed', 'new-value'),
      distribution(SECOND_DISTRIBUTION_ID, 'InProgress', 'new-value'),
      distribution(DISTRIBUTION_ID, 'Deployed', 'new-value'),
      distribution(SECOND_DISTRIBUTION_ID, 'Deployed', 'old-value'),
      xml(config('new-value'), { etag: 'E1' }),
      xml(config('old-value'), { etag: 'E7' }),
      xml(
        `<Distribution><Id>${SECOND_DISTRIBUTION_ID}</Id><Status>InProgress</Status>${config('new-value')}</Distribution>`,
      ),
    );
    expect(ports.rule).toBeUndefined();
    await expect(ports.distribution.sent()).resolves.toEqual({ value: 'new-value', deployed: false });
    await expect(ports.distribution.sent()).resolves.toEqual({ value: null, deployed: true });
    await ports.distribution.send('new-value');
    expect(
      requests.slice(4).map((request) => [request.method, request.path, request.headers['if-match'] ?? null]),
    ).toEqual([
      ['GET', `/2020-05-31/distribution/${DISTRIBUTION_ID}/config`, null],
      ['GET', `/2020-05-31/distribution/${SECOND_DISTRIBUTION_ID}/config`, null],
      ['PUT', `/2020-05-31/distribution/${SECOND_DISTRIBUTION_ID}/config`, 'E7'],
    ]);
  });
});
