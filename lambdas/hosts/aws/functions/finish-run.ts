// host -> the function of every run's last task: record the run finished.
import { finishRun } from '../../../workers/finish-run';
import { workerLambda } from '../lambda';

export const handler = workerLambda(finishRun);
