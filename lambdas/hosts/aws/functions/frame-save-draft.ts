// host -> the function of the frame API: a draft of the answers.
import { frameSaveDraft } from '../../../api/frame-save-draft';
import { apiLambda } from '../lambda';
import { awsAnswerVault } from '../services';

export const handler = await apiLambda(frameSaveDraft, { answerVault: awsAnswerVault });
