// core -> sending a contract (`POST /v1/contract-reviews`) and a new version of one
// (`POST /v1/contract-reviews/{id}/versions`), from the idempotency claim on, in the order of
// decisions.md §1: idempotency, multipart, `request` fields, the file, then references.
import { fail, isServiceError, ServiceError } from '../errors';
import { log } from '../log';
import type { Client, ContractReview, ContractVersion, Recipient, Scope } from '../model';
import { type IdempotencyCompletion, type Ports, type StoredReplay, SUPERSEDED } from '../ports';
import { presentContractReview } from '../present';
import { sameScope } from '../scope';
import { nextWriteTime } from './change';
import { getOwnContractReview } from './read';
import { readContractRequest, readVersionRequest, usableAsRecipient } from './request';
import { CHANNELS_OF, newContractReview, withNewVersion } from './shape';

/** What the upload reader made of the multipart body. */
export type UploadedParts =
  | { ok: true; requestJson: string; file: UploadedFile }
  | { ok: false; message: string };

export interface UploadedFile {
  blobKey: string;
  size: number;
  sha256Hex: string;
}

export interface UploadInput {
  scope: Scope;
  idempotencyKey: string;
  /** Hex SHA-256 of method, path and the verified body digest: "the same request" (decisions.md §2). */
  fingerprint: string;
  parts: UploadedParts;
}

export interface UploadAnswer extends StoredReplay {
  /** True when this answer is the replay of an earlier request's. */
  replayed: boolean;
}

/** Errors found once a request began to act: kept and replayed like a success (decisions.md §2). */
const KEPT_ERRORS = new Set([
  'file_rejected',
  'client_unknown',
  'recipient_client_unusable',
  'external_reference_exists',
  'stale_version',
  'budget_used',
]);

interface Outcome {
  answer: StoredReplay;
  /** Whether the act already kept the answer under the key (in the transaction of its effect). */
  answerKept: boolean;
  /** Whether the uploaded PDF is now a version's file; otherwise it is deleted. */
  fileKept: boolean;
}

type Act = (
  parts: { requestJson: string; file: UploadedFile },
  completion: (answer: StoredReplay) => IdempotencyCompletion,
) => Promise<Outcome>;

/** Claims the idempotency key, runs `act`, keeps or releases the key, and never keeps a file it did not use. */
const runIdempotentUpload = async (
  ports: Pick<Ports, 'blobs' | 'idempotency'>,
  input: UploadInput,
  act: Act,
): Promise<UploadAnswer> => {
  const { scope, idempotencyKey: key, fingerprint, parts } = input;
  let fileKept = false;
  try {
    const claim = await ports.idempotency.claim(scope, key, fingerprint);
    if (claim.kind === 'replay') return { ...claim.answer, replayed: true };
    if (claim.kind === 'reused') {
      fail(
        'idempotency_key_reused',
        'This Idempotency-Key was used for a different request; use a new key for a new request.',
      );
    }
    if (claim.kind === 'in_use') {
      fail(
        'idempotency_key_in_use',
        'An earlier request with this Idempotency-Key is still being processed; retry in a few seconds.',
      );
    }
    try {
      if (!parts.ok) fail('multipart_invalid', parts.message);
      const completion = (answer: StoredReplay): IdempotencyCompletion => ({
        scope,
        key,
        fingerprint,
        answer,
      });
      const outcome = await act(parts, completion);
      fileKept = outcome.fileKept;
      if (!outcome.answerKept) await ports.idempotency.complete(completion(outcome.answer));
      return { ...outcome.answer, replayed: false };
    } catch (error) {
      if (isServiceError(error) && KEPT_ERRORS.has(error.code)) {
        const answer = { status: error.status, body: JSON.stringify(error.toJSON()) };
        await ports.idempotency.complete({ scope, key, fingerprint, answer });
        return { ...answer, replayed: false };
      }
      await ports.idempotency.release(scope, key, fingerprint);
      throw error;
    }
  } finally {
    if (!fileKept && parts.ok) await ports.blobs.delete(parts.file.blobKey);
  }
};

const checkFile = async (ports: Pick<Ports, 'pdfs'>, file: UploadedFile): Promise<number> => {
  const result = await ports.pdfs.inspect(file.blobKey, file.size);
  if (!result.readable)
    return fail(
      'file_rejected',
      `The file is not a readable PDF: ${result.reason} Send the contract as a PDF.`,
    );
  return result.pageCount;
};

/** The named clients, in order; each must be a client of the caller's scope. */
const resolveClients = async (
  ports: Pick<Ports, 'clients'>,
  scope: Scope,
  ids: string[],
): Promise<Client[]> => {
  const clients: Client[] = [];
  for (const id of ids) {
    const client = await ports.clients.get(id);
    if (client === null || !sameScope(client.scope, scope)) {
      fail(
        'client_unknown',
        `${id} is not a client of this environment; name clients who signed up through your onboarding form here.`,
      );
    }
    clients.push(client as Client);
  }
  return clients;
};

const recipientFromClient = (client: Client): Recipient => {
  if (!usableAsRecipient(client)) {
    fail(
      'recipient_client_unusable',
      `The name or email ${client.id} gave cannot address the advice; send \`recipient\`.`,
    );
  }
  return { firstName: client.firstName.trim(), lastName: client.lastName.trim(), email: client.email.trim() };
};

const newVersionRecord = (
  review: ContractReview,
  file: UploadedFile,
  pageCount: number,
): ContractVersion => ({
  contractReviewId: review.id,
  version: review.version,
  fileSha256: file.sha256Hex,
  fileSize: file.size,
  pageCount,
  blobKey: file.blobKey,
  createdAt: review.updatedAt,
});

/** The run is recorded durably with the version; starting it here only saves waiting for the re-drive. */
const startRun = async (
  ports: Pick<Ports, 'environment' | 'workflows'>,
  review: ContractReview,
): Promise<void> => {
  try {
    await ports.workflows.start({
      kind: 'contract',
      environment: ports.environment,
      contractReviewId: review.id,
      version: review.version,
    });
  } catch (error) {
    log.warn('contract run not started; the re-drive will start it', { id: review.id, error });
  }
};

const accepted = (review: ContractReview): StoredReplay => ({
  status: 202,
  body: JSON.stringify(presentContractReview(review)),
});

/** The ports a first send or a new version calls: what the two upload endpoints give them. */
export type SendPorts = Pick<
  Ports,
  | 'blobs'
  | 'clients'
  | 'clock'
  | 'contractReviews'
  | 'environment'
  | 'idempotency'
  | 'ids'
  | 'pdfs'
  | 'workflows'
>;

export const sendContract = (ports: SendPorts, input: UploadInput): Promise<UploadAnswer> =>
  runIdempotentUpload(ports, input, async ({ requestJson, file }, completion) => {
    const request = readContractRequest(requestJson);
    const pageCount = await checkFile(ports, file);
    const clients = await resolveClients(ports, input.scope, request.clients);
    const recipient =
      request.product === 'legal_advice'
        ? (request.recipient ?? recipientFromClient(clients[0] as Client))
        : null;
    const slugs = Object.fromEntries(
      CHANNELS_OF[request.product].map((channel) => [channel, ports.ids.secret('')]),
    );
    const review = newContractReview({
      id: ports.ids.id('crv'),
      scope: input.scope,
      externalReference: request.externalReference,
      product: request.product,
      review: request.review,
      clients: request.clients,
      recipient,
      slugs,
      now: ports.clock.now(),
    });
    const answer = accepted(review);
    await ports.contractReviews.create({
      review,
      version: newVersionRecord(review, file, pageCount),
      idempotency: completion(answer),
    });
    await startRun(ports, review);
    return { answer, answerKept: true, fileKept: true };
  });

export const sendVersion = (
  ports: Omit<SendPorts, 'ids'>,
  input: UploadInput & { contractReviewId: string },
): Promise<UploadAnswer> =>
  runIdempotentUpload(ports, input, async ({ requestJson, file }, completion) => {
    const current = await getOwnContractReview(ports, input.scope, input.contractReviewId);
    const request = readVersionRequest(requestJson, current.version);
    const latest = await ports.contractReviews.getVersion(current.id, current.version);
    if (latest?.fileSha256 === file.sha256Hex) {
      return {
        answer: { status: 200, body: JSON.stringify(presentContractReview(current)) },
        answerKept: false,
        fileKept: false,
      };
    }
    const pageCount = await checkFile(ports, file);
    const clients =
      request.clients === undefined
        ? current.clients
        : (await resolveClients(ports, input.scope, request.clients)).map((c) => c.id);
    if (request.basedOnVersion !== current.version) throw staleVersion(current.version);
    const next = withNewVersion(current, clients, nextWriteTime(ports.clock, current));
    const answer = accepted(next);
    await ports.contractReviews.addVersion({
      review: next,
      version: newVersionRecord(next, file, pageCount),
      basedOnVersion: request.basedOnVersion,
      idempotency: completion(answer),
    });
    await startRun(ports, next);
    await endReviewWait(ports, current);
    return { answer, answerKept: true, fileKept: true };
  });

/**
 * The previous version's run, if it waits for the lawyer, ends now: its review will not come (the new
 * version asks for its own). Once the version is accepted, a fault here fails nothing: the old run's
 * wait then ends at its timeout, and publishes nothing for a version that is no longer the latest.
 */
const endReviewWait = async (ports: Pick<Ports, 'workflows'>, previous: ContractReview): Promise<void> => {
  const token = previous.lawyerReview?.waitToken;
  if (token === undefined) return;
  try {
    await ports.workflows.failWait(
      token,
      SUPERSEDED,
      `Version ${previous.version + 1} was accepted; it asks for a review of its own.`,
    );
  } catch (error) {
    log.warn("the previous version's review wait could not be ended", { id: previous.id, error });
  }
};

export const staleVersion = (latest: number): ServiceError =>
  new ServiceError(
    'stale_version',
    `Version ${latest} is the latest; read it and send your change based on version ${latest}.`,
  );
