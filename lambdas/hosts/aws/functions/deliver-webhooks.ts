// host -> the function of webhook delivery: the delivery queue's event source mapping hands it delivery
// runs, a batch at a time, and brings back only the records it reports failed. Only it sends webhooks.
import { webhookSender } from '../../../adapters/webhooks/http-sender';
import { deliveryRecords } from '../../queue-consumers/delivery-records';
import { queueLambda } from '../lambda';
import { awsDeliveryQueue } from '../services';

export const handler = queueLambda(deliveryRecords, {
  webhookSender: () => ({ send: webhookSender({ allowLoopbackHttp: false }) }),
  deliveryQueue: awsDeliveryQueue,
});
