// core -> whole blobs through the BlobStore port: read in ranges without knowing the size, and small text
// and JSON written and read back. What the pipeline keeps between its steps and what it publishes use them.
import type { BlobStore } from './ports';

/** Bytes asked of the store at a time when reading a whole blob. */
export const READ_CHUNK = 1024 * 1024;

/**
 * A whole blob in chunks, without knowing its size: the port's `readRange` answers fewer bytes (or none)
 * past the end, so a short chunk is the last. Throws whatever the store throws for a missing key.
 */
export async function* readBlob(
  blobs: Pick<BlobStore, 'readRange'>,
  key: string,
  chunk = READ_CHUNK,
): AsyncGenerator<Uint8Array> {
  for (let offset = 0; ; offset += chunk) {
    const bytes = await blobs.readRange(key, offset, offset + chunk);
    if (bytes.byteLength > 0) yield bytes;
    if (bytes.byteLength < chunk) return;
  }
}

/** Bytes already in memory, as the body `BlobStore.put` streams. */
export async function* bytesOnce(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

export const putText = async (
  blobs: Pick<BlobStore, 'put'>,
  key: string,
  text: string,
  contentType: string,
): Promise<void> => {
  await blobs.put(key, bytesOnce(Buffer.from(text, 'utf8')), contentType);
};

export const readText = async (blobs: Pick<BlobStore, 'readRange'>, key: string): Promise<string> => {
  const chunks: Uint8Array[] = [];
  for await (const chunk of readBlob(blobs, key)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};

export const putJson = (blobs: Pick<BlobStore, 'put'>, key: string, value: unknown): Promise<void> =>
  putText(blobs, key, JSON.stringify(value), 'application/json');

export const readJson = async <T>(blobs: Pick<BlobStore, 'readRange'>, key: string): Promise<T> =>
  JSON.parse(await readText(blobs, key)) as T;
