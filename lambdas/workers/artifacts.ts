// workers -> what the pipeline keeps between its steps, in the blob store: the rendered pages and their
// manifest (processing), the analysis (for the lawyer) and the lawyer's review text. Keys are per
// version, so a retried step overwrites its own output and never another version's.
import { readBlob } from '../../frontend/pages/publication';
import type { BlobStore } from '../core/ports';

const versionFolder = (contractReviewId: string, version: number) =>
  `renders/${contractReviewId}/v${version}/`;

export const artifacts = {
  /** Where the renderer puts the page images of a version. */
  pagesPrefix: (contractReviewId: string, version: number) => versionFolder(contractReviewId, version),
  /** The RenderedContract of a version: its pages, images and text, as processing left them. */
  manifest: (contractReviewId: string, version: number) =>
    `${versionFolder(contractReviewId, version)}contract.json`,
  analysis: (contractReviewId: string, version: number) =>
    `${versionFolder(contractReviewId, version)}analysis.json`,
  /** The analysis as Markdown: the draft a review starts from. */
  analysisMarkdown: (contractReviewId: string, version: number) =>
    `${versionFolder(contractReviewId, version)}analysis.md`,
  /** The lawyer's review of a version, Markdown, as published. */
  review: (contractReviewId: string, version: number) => `reviews/${contractReviewId}/v${version}/review.md`,
};

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

export const putText = async (
  blobs: BlobStore,
  key: string,
  text: string,
  contentType: string,
): Promise<void> => {
  await blobs.put(key, once(Buffer.from(text, 'utf8')), contentType);
};

export const readText = async (blobs: BlobStore, key: string): Promise<string> => {
  const chunks: Uint8Array[] = [];
  for await (const chunk of readBlob(blobs, key)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};

export const putJson = (blobs: BlobStore, key: string, value: unknown): Promise<void> =>
  putText(blobs, key, JSON.stringify(value), 'application/json');

export const readJson = async <T>(blobs: BlobStore, key: string): Promise<T> =>
  JSON.parse(await readText(blobs, key)) as T;
