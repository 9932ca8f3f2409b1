// host -> the function of the delivery run: one attempt of a webhook message.
import { attemptDelivery } from '../../../workers/attempt-delivery';
import { workerLambda } from '../lambda';

export const handler = workerLambda(attemptDelivery);
