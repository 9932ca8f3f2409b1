// workers -> the worker of every workflow task (tasks.ts declares them), for the local workflow runner;
// CDK deploys each as its own Lambda (the task's `entry`). A task without a worker, or a worker of no
// declared task, does not compile.
import { acceptOnboarding } from './accept-onboarding';
import { analyseVersion } from './analyse-contract';
import { finishRun } from './finish-run';
import { giveUpAcceptance } from './give-up-acceptance';
import { giveUpDeliveryWait } from './give-up-delivery-wait';
import { handBackDelivery } from './hand-back-delivery';
import { publishReview } from './publish-review';
import { publishViewer } from './publish-viewer';
import { requestLawyerReview } from './request-lawyer-review';
import type { WorkflowTaskName } from './tasks';
import type { Worker } from './worker';

export const WORKERS: Readonly<Record<WorkflowTaskName, Worker<unknown>>> = {
  PublishViewer: publishViewer,
  AnalyseContract: analyseVersion,
  RequestLawyerReview: requestLawyerReview,
  PublishReview: publishReview,
  FinishRun: finishRun,
  HandBackDelivery: handBackDelivery,
  GiveUpDeliveryWait: giveUpDeliveryWait,
  AcceptOnboarding: acceptOnboarding,
  GiveUpAcceptance: giveUpAcceptance,
};
