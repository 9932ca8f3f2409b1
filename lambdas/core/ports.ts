// core -> the ports through which the domain talks to the world, grouped by area under ports/ (each
// area's port interfaces and the slice of `Ports` it owns). Adapters implement them: DynamoDB and S3
// deployed and locally (DynamoDB Local, a local S3 twin), Step Functions, jose. A use case declares the
// ports it calls (`Pick<Ports, …>`) and each composition root gives exactly those; a new area (staff,
// the audit log) adds its file here and its slice to `Ports`.

import type { BackOfficePorts } from './ports/back-office';
import type { ContractPorts } from './ports/contracts';
import type { FoundationPorts } from './ports/foundation';
import type { IdentityPorts } from './ports/identity';
import type { OnboardingPorts } from './ports/onboarding';
import type { RequestHistoryPorts } from './ports/request-history';
import type { RunPorts } from './ports/runs';
import type { WebhookPorts } from './ports/webhooks';

export * from './ports/back-office';
export * from './ports/contracts';
export * from './ports/foundation';
export * from './ports/identity';
export * from './ports/onboarding';
export * from './ports/request-history';
export * from './ports/runs';
export * from './ports/webhooks';

/** Every port of one environment, area by area: what a use case picks its ports from. */
export interface Ports
  extends FoundationPorts,
    RunPorts,
    ContractPorts,
    OnboardingPorts,
    WebhookPorts,
    IdentityPorts,
    RequestHistoryPorts,
    BackOfficePorts {}

/**
 * The ports a composition root builds only where its code calls them, each holding a key (access
 * tokens, the form's answers), a heavy library (pdf.js, the analysis; the S3 and Step Functions clients
 * behind the blob store and the workflows) or a reach outward (the webhook sender, the delivery queue). A root wires each one its code's `Pick<Ports, …>` names, and no other.
 */
export type WiredPortName =
  | 'blobs'
  | 'workflows'
  | 'tokenIssuer'
  | 'tokenVerifier'
  | 'answerVault'
  | 'pdfs'
  | 'renderer'
  | 'analyser'
  | 'webhookSender'
  | 'deliveryQueue';

/** What every composition root gives: the stores over its table, the clock and ids, and the request history. */
export type CommonPorts = Omit<Ports, WiredPortName>;
