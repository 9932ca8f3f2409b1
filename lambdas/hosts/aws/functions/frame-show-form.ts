// host -> the function of the frame API: the form of a session.
import { frameShowForm } from '../../../api/frame-show-form';
import { apiLambda } from '../lambda';
import { awsAnswerVault } from '../services';

export const handler = await apiLambda(frameShowForm, { answerVault: awsAnswerVault });
