// host -> the function of the webhook fan-out: the fan-out queue's event source mapping hands it the
// events the bus routed there, a batch at a time, and retries only the records it reports failed.
import { fanOutRecords } from '../../queue-consumers/fan-out-records';
import { queueLambda } from '../lambda';
import { awsDeliveryQueue } from '../services';

export const handler = queueLambda(fanOutRecords, { deliveryQueue: awsDeliveryQueue });
