import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { BlobNotFoundError, S3BlobStore } from '../../lambdas/adapters/blobs/s3-blob-store';
import { createS3Client, ensureBucket } from '../../lambdas/adapters/blobs/s3-client';
import { type LocalS3, startLocalS3 } from '../../local/emulators/s3-server';
import { eventually } from '../support/eventually';

const MiB = 1024 * 1024;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** `total` deterministic bytes in chunks of `chunk`, generated as they are read (never all in memory). */
async function* stream(total: number, chunk = 64 * 1024, seed = 7): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < total; offset += chunk) {
    yield pattern(offset, Math.min(chunk, total - offset), seed);
  }
}

/** The bytes at [offset, offset + length) of the stream above: byte i is (i * 31 + seed) mod 251. */
const pattern = (offset: number, length: number, seed = 7): Uint8Array => {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = ((offset + i) * 31 + seed) % 251;
  return bytes;
};

describe('S3BlobStore on the local S3 twin', () => {
  let directory: string;
  let s3: LocalS3;
  let client: S3Client;
  let blobs: S3BlobStore;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'blobs-'));
    s3 = await startLocalS3(directory, 0);
    client = createS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    await ensureBucket(client, 'blobs');
    blobs = new S3BlobStore({ client, bucket: 'blobs' });
  });

  afterAll(async () => {
    client.destroy();
    await s3.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('creating the bucket twice is fine', async () => {
    await expect(ensureBucket(client, 'blobs')).resolves.toBeUndefined();
  });

  it('streams a 23 MB body as a multipart upload and reads ranges across its parts', async () => {
    const total = 23 * MiB + 123;
    const { size } = await blobs.put('contracts/big.pdf', stream(total), 'application/pdf');
    expect(size).toBe(total);

    for (const [start, end] of [
      [0, 1024],
      [5 * MiB - 10, 5 * MiB + 10], // across the first part boundary
      [total - 100, total],
      [7 * MiB, 17 * MiB], // spans three parts
    ] as const) {
      // Buffer.equals: jest's deep equality walks megabytes byte by byte.
      const read = Buffer.from(await blobs.readRange('contracts/big.pdf', start, end));
      expect(read.equals(pattern(start, end - start))).toBe(true);
    }
    const tail = await blobs.readRange('contracts/big.pdf', total - 5, total + 1000);
    expect(tail.length).toBe(5);
    expect((await blobs.readRange('contracts/big.pdf', total, total + 10)).length).toBe(0);
  });

  it('stores exactly the bytes sent (whole-object hash)', async () => {
    const total = 12 * MiB + 1;
    await blobs.put('hash/check', stream(total, 100_000, 3), 'application/octet-stream');
    const whole = await blobs.readRange('hash/check', 0, total);
    const expected = createHash('sha256');
    for await (const chunk of stream(total, 100_000, 3)) expected.update(chunk);
    expect(createHash('sha256').update(whole).digest('hex')).toBe(expected.digest('hex'));
  });

  it('stores a body of exactly two parts (no short last part), in chunks that straddle the parts', async () => {
    const total = 16 * MiB; // two 8 MiB parts
    await blobs.put('exact', stream(total, 3 * 1000 * 1000, 5), 'application/pdf');
    const whole = Buffer.from(await blobs.readRange('exact', 0, total + 10));
    expect(whole.length).toBe(total);
    expect(whole.equals(pattern(0, total, 5))).toBe(true);
  });

  it('puts a small body in one request, and an empty one', async () => {
    const bytes = randomBytes(1000);
    const body = async function* () {
      yield bytes;
    };
    expect(await blobs.put('small', body(), 'application/pdf')).toEqual({ size: 1000 });
    expect(Buffer.from(await blobs.readRange('small', 10, 20))).toEqual(bytes.subarray(10, 20));

    expect(await blobs.put('empty', (async function* () {})(), 'application/pdf')).toEqual({ size: 0 });
    expect((await blobs.readRange('empty', 0, 10)).length).toBe(0);
  });

  it('overwrites a key', async () => {
    const one = async function* () {
      yield Buffer.from('first version');
    };
    const two = async function* () {
      yield Buffer.from('second');
    };
    await blobs.put('overwritten', one(), 'text/plain');
    await blobs.put('overwritten', two(), 'text/plain');
    expect(Buffer.from(await blobs.readRange('overwritten', 0, 100)).toString()).toBe('second');
  });

  it('deletes, and a missing key reads as BlobNotFoundError', async () => {
    await blobs.put('to-delete', stream(6 * MiB), 'application/pdf');
    await blobs.delete('to-delete');
    await expect(blobs.readRange('to-delete', 0, 10)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(blobs.readRange('never-stored', 0, 10)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(blobs.delete('never-stored')).resolves.toBeUndefined();
  });

  it('copies a blob inside the store with a new content type; each copy outlives the other’s delete', async () => {
    await blobs.put('renders/source a+b.pdf', stream(11 * MiB), 'application/pdf');
    await blobs.copy('renders/source a+b.pdf', 'published/pub_1/v1/contract.pdf', 'application/x-copied');
    await blobs.copy('renders/source a+b.pdf', 'published/pub_1/v1/again.pdf', 'application/pdf');
    const typeOf = async (key: string) =>
      (await client.send(new GetObjectCommand({ Bucket: 'blobs', Key: key, Range: 'bytes=0-0' })))
        .ContentType;
    expect(await typeOf('published/pub_1/v1/contract.pdf')).toBe('application/x-copied');
    await blobs.delete('renders/source a+b.pdf');
    await blobs.delete('published/pub_1/v1/again.pdf');
    const span = await blobs.readRange('published/pub_1/v1/contract.pdf', 8 * MiB - 5, 8 * MiB + 5);
    expect(Buffer.from(span)).toEqual(Buffer.from(pattern(8 * MiB - 5, 10)));
    expect(
      (await blobs.readRange('published/pub_1/v1/contract.pdf', 11 * MiB - 3, 11 * MiB + 10)).length,
    ).toBe(3);
    await expect(blobs.copy('never-stored', 'anywhere', 'text/plain')).rejects.toBeInstanceOf(
      BlobNotFoundError,
    );
    await expect(blobs.readRange('anywhere', 0, 1)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('a body that fails midway stores nothing and leaves no parts behind', async () => {
    const failing = async function* () {
      yield* stream(11 * MiB);
      throw new Error('client went away');
    };
    await expect(blobs.put('failed', failing(), 'application/pdf')).rejects.toThrow('client went away');
    await expect(blobs.readRange('failed', 0, 10)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await readdir(join(directory, 'blobs', 'uploads'))).toEqual([]);
  });

  it('keeps its data across a restart of the twin', async () => {
    await blobs.put('kept', stream(1000), 'application/pdf');
    await s3.stop();
    s3 = await startLocalS3(directory, 0);
    client.destroy();
    client = createS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    blobs = new S3BlobStore({ client, bucket: 'blobs' });
    expect(Buffer.from(await blobs.readRange('kept', 0, 1000))).toEqual(Buffer.from(pattern(0, 1000)));
  });

  it('runs as a process of its own, which stop() ends', async () => {
    expect(s3.pid).not.toBe(process.pid);
    expect(alive(s3.pid)).toBe(true);
    const other = await startLocalS3(directory, 0);
    expect(alive(other.pid)).toBe(true);
    await other.stop();
    expect(alive(other.pid)).toBe(false);
    await expect(other.stop()).resolves.toBeUndefined();
  });

  it('is not left behind when the process that started it is killed', async () => {
    const server = new URL('../../local/emulators/s3-server.ts', import.meta.url).href;
    const script = `const { startLocalS3 } = await import(${JSON.stringify(server)}); const s3 = await startLocalS3(${JSON.stringify(directory)}, 0); console.log(s3.pid); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const twinPid = await new Promise<number>((resolve, reject) => {
      parent.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
      parent.once('exit', (code) => reject(new Error(`parent exited (${code})`)));
    });
    expect(alive(twinPid)).toBe(true);
    parent.kill('SIGKILL');
    await eventually(
      async () => alive(twinPid),
      (running) => !running,
      {
        what: `the twin (pid ${twinPid}) to end with its parent`,
        timeoutMs: 10_000,
      },
    );
  });

  it('refuses a port that is taken, and says so', async () => {
    const port = Number(new URL(s3.endpoint).port);
    await expect(startLocalS3(directory, port)).rejects.toThrow(/did not start.*EADDRINUSE/);
  });
});
