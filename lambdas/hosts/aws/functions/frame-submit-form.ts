// host -> the function of the frame API: the submission.
import { frameSubmitForm } from '../../../api/frame-submit-form';
import { apiLambda } from '../lambda';
import { awsAnswerVault, awsWorkflows } from '../services';

export const handler = await apiLambda(frameSubmitForm, {
  workflows: awsWorkflows,
  answerVault: awsAnswerVault,
});
