// workers -> every workflow task, under the name its state machine definition gives the function that
// runs it (`${AnalyseContractFunctionArn}` in lib/workflows/*.asl.json), for the local workflow runner;
// CDK deploys each module as its own Lambda under the same name.
import { acceptOnboarding } from './accept-onboarding';
import { analyseVersion } from './analyse-contract';
import { finishRun } from './finish-run';
import { giveUpAcceptance } from './give-up-acceptance';
import { giveUpDeliveryWait } from './give-up-delivery-wait';
import { handBackDelivery } from './hand-back-delivery';
import { publishReview } from './publish-review';
import { publishViewer } from './publish-viewer';
import { requestLawyerReview } from './request-lawyer-review';
import type { Worker } from './worker';

export const WORKERS: Readonly<Record<string, Worker<unknown>>> = {
  PublishViewerFunctionArn: publishViewer,
  AnalyseContractFunctionArn: analyseVersion,
  RequestLawyerReviewFunctionArn: requestLawyerReview,
  PublishReviewFunctionArn: publishReview,
  FinishRunFunctionArn: finishRun,
  HandBackDeliveryFunctionArn: handBackDelivery,
  GiveUpDeliveryWaitFunctionArn: giveUpDeliveryWait,
  AcceptOnboardingFunctionArn: acceptOnboarding,
  GiveUpAcceptanceFunctionArn: giveUpAcceptance,
};
