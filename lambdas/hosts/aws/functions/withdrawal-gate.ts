// host -> the function of the withdrawal gate (S3 sends it the markers' object events through EventBridge):
// its ports over CloudFront's key value store and invalidations, built once per instance.
import { GateConfig, sdkPorts } from '../../../adapters/cloudfront/withdrawal-gate-ports';
import { type GateOutcome, syncWithdrawal } from '../../../workers/withdrawal-gate';
import { builtOnFirstUse } from '../built-on-first-use';

/** The ports of this instance, built on first use; a failed build is retried on the next event. */
const gatePorts = builtOnFirstUse(async () => sdkPorts(GateConfig.parse(process.env)));

export const handler = async (event: unknown): Promise<GateOutcome> =>
  syncWithdrawal(event, await gatePorts());
