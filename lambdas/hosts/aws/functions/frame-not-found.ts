// host -> the function of every other path of the frame API.
import { frameNotFound } from '../../../api/frame-not-found';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(frameNotFound);
