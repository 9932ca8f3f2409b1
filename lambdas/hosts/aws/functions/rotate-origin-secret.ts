// host -> the function that rotates the origin secret (Secrets Manager calls it for each step): its ports
// over Secrets Manager, the load balancer's listener rule and the API distribution, built once per instance.
import { RotationConfig, sdkRotationPorts } from '../../../adapters/origin-secret-ports';
import { rotateOriginSecret } from '../../../workers/origin-secret-rotation';
import { builtOnFirstUse } from '../built-on-first-use';

/** The ports of this instance, built on first use; a failed build is retried on the next event. */
const rotationPorts = builtOnFirstUse(async () => sdkRotationPorts(RotationConfig.parse(process.env)));

export const handler = async (event: unknown): Promise<void> =>
  rotateOriginSecret(event, await rotationPorts());
