// host -> the function of the contract run's wait for the lawyer: keep the run's task token.
import { requestLawyerReview } from '../../../workers/request-lawyer-review';
import { workerLambda } from '../lambda';

export const handler = workerLambda(requestLawyerReview);
