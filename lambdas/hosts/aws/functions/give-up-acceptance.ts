// host -> the function of the acceptance run's last resort: record it failed.
import { giveUpAcceptance } from '../../../workers/give-up-acceptance';
import { workerLambda } from '../lambda';

export const handler = workerLambda(giveUpAcceptance);
