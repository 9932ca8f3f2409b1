// host -> the function of the scheduled re-drive of recorded runs.
import { redriveRuns } from '../../../workers/redrive-runs';
import { portsLambda } from '../lambda';

export const handler = portsLambda(async (ports) => ({ started: await redriveRuns(ports) }));
