// host -> the function of the webhook fan-out (the table's stream and a schedule invoke it).
import { fanOutAll } from '../../../workers/fan-out';
import { portsLambda } from '../lambda';

export const handler = portsLambda(fanOutAll);
