// host -> the function of the frame API: a draft of the answers.
import { frameSaveDraft } from '../../../api/frame-save-draft';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(frameSaveDraft);
