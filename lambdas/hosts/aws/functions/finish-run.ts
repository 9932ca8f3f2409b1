// host -> the function of the every run: record it finished.
import { finishRun } from '../../../workers/finish-run';
import { workerLambda } from '../lambda';

export const handler = workerLambda(finishRun);
