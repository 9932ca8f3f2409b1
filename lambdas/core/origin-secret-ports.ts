// core -> the origin secret (the value CloudFront sends the ingest load balancer in `x-origin-verify`)
// as its rotation (workers/origin-secret-rotation.ts) and the ingest service (hosts/origin-verify.ts) see
// it: the secret's versions, the listener rule that admits the header, and the distribution that sends
// it. The adapter over the AWS SDK is adapters/origin-secret-ports.ts.

/** Secrets Manager's staging labels: the value in use, the one a rotation brings in, the one it replaced. */
export const SECRET_STAGES = {
  current: 'AWSCURRENT',
  pending: 'AWSPENDING',
  previous: 'AWSPREVIOUS',
} as const;
export type SecretStage = (typeof SECRET_STAGES)[keyof typeof SECRET_STAGES];

export interface OriginSecret {
  /** The secret's ARN (Secrets Manager names it in each rotation event). */
  readonly arn: string;
  /** Whether rotation is on, and the staging labels of each version id (DescribeSecret). */
  versions(): Promise<{ rotationEnabled: boolean; stages: Readonly<Record<string, readonly string[]>> }>;
  /** The value of the version labelled `stage` (and with id `versionId`, if given), or null if none is. */
  value(stage: SecretStage, versionId?: string): Promise<string | null>;
  /** A new random value, of the shape the secret was created with. */
  randomValue(): Promise<string>;
  /** Stores `value` as version `versionId`, labelled pending (a repeat with the same value is a no-op). */
  putPending(versionId: string, value: string): Promise<void>;
  /** Moves the current label from `currentVersionId` to `versionId` (the old one becomes previous). */
  makeCurrent(versionId: string, currentVersionId: string): Promise<void>;
}

/** The load balancer's listener rule that forwards only requests carrying the header. */
export interface ListenerRule {
  /** From now on the rule forwards a request whose header is any of `values`, and no other. */
  accept(values: readonly string[]): Promise<void>;
}

/** The CloudFront distributions that add the header to the requests they send their origins. */
export interface OriginHeader {
  /** The value every distribution sends (null if none or they differ), and whether all are deployed. */
  sent(): Promise<{ value: string | null; deployed: boolean }>;
  /** Changes each configuration to send `value` (a no-op where it already does). */
  send(value: string): Promise<void>;
}

export interface RotationPorts {
  readonly secret: OriginSecret;
  /** Absent for a secret no listener rule checks (HTTP APIs' origin authorizers accept every value). */
  readonly rule?: ListenerRule;
  readonly distribution: OriginHeader;
  /** Waits before checking the distribution again (tests pass a no-op). */
  pause(milliseconds: number): Promise<void>;
}

/**
 * The values a request from CloudFront may carry at any moment of a rotation: the current one, the
 * pending one (CloudFront may send it from setSecret on) and the previous one (edge locations not yet
 * updated, or requests under way when finishSecret moved the label).
 */
export const acceptedValues = async (secret: Pick<OriginSecret, 'value'>): Promise<string[]> => {
  const values = await Promise.all(
    [SECRET_STAGES.current, SECRET_STAGES.pending, SECRET_STAGES.previous].map((stage) =>
      secret.value(stage),
    ),
  );
  return values.filter((value): value is string => typeof value === 'string' && value.length > 0);
};
