// host -> the function of the scheduled re-drive of recorded runs.
import { redriveRuns } from '../../../workers/redrive-runs';
import { portsLambda } from '../lambda';
import { awsDeliveryQueue, awsWorkflows } from '../services';

export const handler = portsLambda(
  async (ports: Parameters<typeof redriveRuns>[0]) => ({ started: await redriveRuns(ports) }),
  { workflows: awsWorkflows, deliveryQueue: awsDeliveryQueue },
);
