// host -> the function of webhook delivery: the delivery queue's event source mapping hands it delivery
// runs, a batch at a time, and brings back only the records it reports failed.
import { deliveryRecords } from '../../delivery-records';
import { queueLambda } from '../lambda';

export const handler = queueLambda(deliveryRecords);
