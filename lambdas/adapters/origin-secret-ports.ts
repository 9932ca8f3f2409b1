// adapter -> the origin secret's ports (core/origin-secret-ports.ts) over the AWS SDK, with the role's
// credentials: Secrets Manager (DescribeSecret, GetSecretValue, GetRandomPassword, PutSecretValue,
// UpdateSecretVersionStage), Elastic Load Balancing's ModifyRule and CloudFront's GetDistribution,
// GetDistributionConfig and UpdateDistribution. The SDK is loaded on first use, not on import: the CDK
// app imports this module for the settings' names.
import type { SecretsManagerClientConfig } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import type { ListenerRule, OriginHeader, OriginSecret, RotationPorts } from '../core/origin-secret-ports';

/** The settings of the rotation function (lib/upload-ingest.ts sets them). */
export const ROTATION_SETTINGS = {
  secret: 'ORIGIN_VERIFY_SECRET_ARN',
  header: 'ORIGIN_VERIFY_HEADER',
  /** Absent where no listener rule checks the header (an HTTP API's origin authorizer reads the secret). */
  rule: 'INGEST_RULE_ARN',
  /** The distributions sending the header, comma-separated. */
  distributions: 'DISTRIBUTION_IDS',
} as const;

export const RotationConfig = z.object({
  [ROTATION_SETTINGS.secret]: z.string().check(z.regex(/^arn:aws[a-z-]*:secretsmanager:/)),
  [ROTATION_SETTINGS.header]: z.string().check(z.minLength(1)),
  [ROTATION_SETTINGS.rule]: z.optional(z.string().check(z.regex(/^arn:aws[a-z-]*:elasticloadbalancing:/))),
  [ROTATION_SETTINGS.distributions]: z.string().check(z.regex(/^[A-Z0-9]+(,[A-Z0-9]+)*$/)),
  AWS_REGION: z.string().check(z.minLength(1)),
});
export type RotationConfig = z.infer<typeof RotationConfig>;

/** Client settings besides the region: none deployed (the SDK's defaults); tests fake the HTTP handler. */
export type SdkOptions = Pick<SecretsManagerClientConfig, 'credentials' | 'requestHandler' | 'maxAttempts'>;

/** The length and alphabet the secret was created with (lib/upload-ingest.ts). */
export const ORIGIN_SECRET_SHAPE = { passwordLength: 48, excludePunctuation: true } as const;

/** The secret `arn` over Secrets Manager. */
export const sdkOriginSecret = async (
  arn: string,
  region: string,
  options: SdkOptions = {},
): Promise<OriginSecret> => {
  const sdk = await import('@aws-sdk/client-secrets-manager');
  const client = new sdk.SecretsManagerClient({ region, ...options });
  return {
    arn,
    versions: async () => {
      const described = await client.send(new sdk.DescribeSecretCommand({ SecretId: arn }));
      return {
        rotationEnabled: described.RotationEnabled === true,
        stages: described.VersionIdsToStages ?? {},
      };
    },
    value: async (VersionStage, VersionId) => {
      try {
        const { SecretString } = await client.send(
          new sdk.GetSecretValueCommand({ SecretId: arn, VersionStage, VersionId }),
        );
        return SecretString ?? null;
      } catch (error) {
        // No version has that label (no rotation under way, or none before it).
        if (error instanceof Error && error.name === 'ResourceNotFoundException') return null;
        throw error;
      }
    },
    randomValue: async () => {
      const { RandomPassword } = await client.send(
        new sdk.GetRandomPasswordCommand({
          PasswordLength: ORIGIN_SECRET_SHAPE.passwordLength,
          ExcludePunctuation: ORIGIN_SECRET_SHAPE.excludePunctuation,
        }),
      );
      if (!RandomPassword) throw new Error('GetRandomPassword answered no password');
      return RandomPassword;
    },
    putPending: async (ClientRequestToken, SecretString) => {
      await client.send(
        new sdk.PutSecretValueCommand({
          SecretId: arn,
          ClientRequestToken,
          SecretString,
          VersionStages: ['AWSPENDING'],
        }),
      );
    },
    makeCurrent: async (MoveToVersionId, RemoveFromVersionId) => {
      await client.send(
        new sdk.UpdateSecretVersionStageCommand({
          SecretId: arn,
          VersionStage: 'AWSCURRENT',
          MoveToVersionId,
          RemoveFromVersionId,
        }),
      );
    },
  };
};

/**
 * The rotation's ports over the AWS SDK's clients. The role may change only this rule (if any) and these
 * distributions.
 */
export const sdkRotationPorts = async (
  config: RotationConfig,
  options: SdkOptions = {},
): Promise<RotationPorts> => {
  const [elbSdk, cloudFrontSdk] = await Promise.all([
    import('@aws-sdk/client-elastic-load-balancing-v2'),
    import('@aws-sdk/client-cloudfront'),
  ]);
  const clientConfig = { region: config.AWS_REGION, ...options };
  const cloudFront = new cloudFrontSdk.CloudFrontClient(clientConfig);
  const header = config[ROTATION_SETTINGS.header].toLowerCase();
  const ids = config[ROTATION_SETTINGS.distributions].split(',');
  const ruleArn = config[ROTATION_SETTINGS.rule];

  // The rule has this one condition (lib/upload-ingest.ts; test/infra checks it): ModifyRule replaces
  // the conditions whole, so no DescribeRules (which takes no resource) is needed to keep others.
  const elb = ruleArn === undefined ? undefined : new elbSdk.ElasticLoadBalancingV2Client(clientConfig);
  const rule: ListenerRule | undefined =
    elb &&
    ({
      accept: async (values) => {
        await elb.send(
          new elbSdk.ModifyRuleCommand({
            RuleArn: ruleArn,
            Conditions: [
              {
                Field: 'http-header',
                HttpHeaderConfig: { HttpHeaderName: header, Values: [...new Set(values)] },
              },
            ],
          }),
        );
      },
    } satisfies ListenerRule);

  type Origins = {
    Items?: { CustomHeaders?: { Items?: { HeaderName?: string; HeaderValue?: string }[] } }[];
  };
  /** The origin custom headers named `header` (one per origin that sends it). */
  const headersOf = (origins: Origins | undefined) =>
    (origins?.Items ?? []).flatMap((origin) =>
      (origin.CustomHeaders?.Items ?? []).filter((custom) => custom.HeaderName?.toLowerCase() === header),
    );

  /** What one distribution sends: its headers' value if they agree, and whether it is deployed. */
  const sentBy = async (Id: string) => {
    const { Distribution } = await cloudFront.send(new cloudFrontSdk.GetDistributionCommand({ Id }));
    const values = new Set(headersOf(Distribution?.DistributionConfig?.Origins).map((h) => h.HeaderValue));
    const [value] = values;
    return {
      value: values.size === 1 ? (value ?? null) : null,
      deployed: Distribution?.Status === 'Deployed',
    };
  };

  const sendBy = async (Id: string, value: string) => {
    const { DistributionConfig, ETag } = await cloudFront.send(
      new cloudFrontSdk.GetDistributionConfigCommand({ Id }),
    );
    const headers = headersOf(DistributionConfig?.Origins);
    if (!DistributionConfig || headers.length === 0)
      throw new Error(`distribution ${Id} has no origin sending ${header}`);
    if (headers.every((custom) => custom.HeaderValue === value)) return;
    for (const custom of headers) custom.HeaderValue = value;
    // IfMatch: a change made since the read (a deployment) refuses this one; the step is retried.
    await cloudFront.send(
      new cloudFrontSdk.UpdateDistributionCommand({ Id, IfMatch: ETag, DistributionConfig }),
    );
  };

  // One after another: a failure part way is retried whole, and each step is a no-op where already done.
  const distribution: OriginHeader = {
    sent: async () => {
      const each = [];
      for (const id of ids) each.push(await sentBy(id));
      const values = new Set(each.map((one) => one.value));
      const [value] = values;
      return {
        value: values.size === 1 ? (value ?? null) : null,
        deployed: each.every((one) => one.deployed),
      };
    },
    send: async (value) => {
      for (const id of ids) await sendBy(id, value);
    },
  };

  return {
    secret: await sdkOriginSecret(config[ROTATION_SETTINGS.secret], config.AWS_REGION, options),
    ...(rule && { rule }),
    distribution,
    pause: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
  };
};
