// host -> the function of the delivery wait's last resort: say the hand-back gave up.
import { giveUpDeliveryWait } from '../../../workers/give-up-delivery-wait';
import { workerLambda } from '../lambda';

export const handler = workerLambda(giveUpDeliveryWait);
