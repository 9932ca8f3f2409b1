// host -> the function of the contract run: analyse a version.
import { analyseVersion } from '../../../workers/analyse-contract';
import { workerLambda } from '../lambda';

export const handler = workerLambda(analyseVersion);
