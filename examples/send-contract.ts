// examples -> sending a contract with the typed client (clients/typescript), as the README's walk-through
// runs it: `SERVICE_API_KEY=svc_test_… npx tsx examples/send-contract.ts contract.pdf`. Outside this
// repository, install the package and import from 'contract-publishing-client'.
import { ContractServiceClient, isServiceApiError } from '../clients/typescript/src/index';

const [file = 'examples/sample-contract.pdf'] = process.argv.slice(2);
const client = new ContractServiceClient({
  apiKey: process.env.SERVICE_API_KEY ?? '',
  baseUrl: `http://127.0.0.1:${Number(process.env.PORT_BASE ?? 3000) + 1}`, // the local sandbox
});

try {
  // The token, the Idempotency-Key, the multipart body and its Content-Digest are the client's work.
  const { status, contractReview } = await client.contractReviews.create(
    { external_reference: `sale-${Date.now()}`, product: 'contract_viewer' },
    { path: file },
  );
  console.log(status, contractReview.id);
  const published = await client.contractReviews.poll(
    contractReview.id,
    (review) => review.publications.every((publication) => publication.state === 'published'),
    // Every 30 s (the default) in real use; give up, with an error saying so, after 2 minutes.
    { intervalMs: 2_000, timeoutMs: 120_000 },
  );
  console.log(published.publications[0]?.url);
} catch (error) {
  // Every refusal carries the interface's code and the request's id.
  if (!isServiceApiError(error)) throw error;
  console.error(`${error.code}: ${error.message} (Service-Request-Id ${error.requestId})`);
  process.exitCode = 1;
}
