// host -> the function of the withdrawal gate (S3 sends it the markers' object events through EventBridge):
// its ports over CloudFront's key value store and invalidations, built once per instance.
import { GateConfig, sdkPorts } from '../../../adapters/cloudfront/withdrawal-gate-ports';
import type { GatePorts } from '../../../core/withdrawal-gate-ports';
import { type GateOutcome, syncWithdrawal } from '../../../workers/withdrawal-gate';

let ports: Promise<GatePorts> | undefined;

/** The ports of this instance, built on first use; a failed build is retried on the next event. */
const gatePorts = (): Promise<GatePorts> => {
  ports ??= (async () => sdkPorts(GateConfig.parse(process.env)))().catch((error) => {
    ports = undefined;
    throw error;
  });
  return ports;
};

export const handler = async (event: unknown): Promise<GateOutcome> =>
  syncWithdrawal(event, await gatePorts());
