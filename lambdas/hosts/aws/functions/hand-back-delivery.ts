// host -> the function of a delivery's wait workflow: hands the run back to the delivery queue when due.
import { handBackDelivery } from '../../../workers/hand-back-delivery';
import { workerLambda } from '../lambda';
import { awsDeliveryQueue } from '../services';

export const handler = workerLambda(handBackDelivery, { deliveryQueue: awsDeliveryQueue });
