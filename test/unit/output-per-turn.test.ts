// The local stack's standard output, one write per turn of the event loop: every line a turn writes
// reaches the stream in order in one write (a file's stream has no writev: one write still), anything
// else keeps its place, and lines still held when the process exits are written.
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { writeOncePerTurn } from '../../local/output-per-turn';

/**
 * A stream that notes each call of the underlying write (single chunks, and gathered ones when it has a
 * writev), as a pipe's has; without one, as a file's (SyncWriteStream) has not.
 */
const countingStream = ({ gathers }: { gathers: boolean }) => {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      calls.push([chunk.toString()]);
      done();
    },
    ...(gathers && {
      writev(chunks: Array<{ chunk: unknown }>, done: () => void) {
        calls.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
        done();
      },
    }),
  });
  return { stream, calls };
};

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i}\n`).join('');

test.each([
  ['with writev (a pipe)', true],
  ['without writev (a file)', false],
])(
  "a turn's lines reach a stream %s in one write, in order; the next turn's in another",
  async (_, gathers) => {
    const { stream, calls } = countingStream({ gathers });
    writeOncePerTurn(stream);
    for (let i = 0; i < 50; i++) stream.write(`line ${i}\n`);
    expect(calls).toEqual([]);
    await nextTurn();
    stream.write('later\n');
    await nextTurn();
    expect(calls).toEqual([[lines(50)], ['later\n']]);
  },
);

test('a Buffer or a write with a callback keeps its place: what the turn held goes first', async () => {
  const { stream, calls } = countingStream({ gathers: false });
  writeOncePerTurn(stream);
  stream.write('first\n');
  stream.write(Buffer.from('bytes\n'));
  let called = false;
  stream.write('with callback\n', () => {
    called = true;
  });
  stream.write('last\n');
  await nextTurn();
  expect(calls).toEqual([['first\n'], ['bytes\n'], ['with callback\n'], ['last\n']]);
  expect(called).toBe(true);
});

test('a turn that writes more than a megabyte sends it without waiting for the turn to end', () => {
  const { stream, calls } = countingStream({ gathers: false });
  writeOncePerTurn(stream);
  const line = `${'x'.repeat(1023)}\n`;
  for (let i = 0; i < 1024; i++) stream.write(line);
  expect(calls).toEqual([[line.repeat(1024)]]);
});

test('lines written in the turn that ends the process still reach its output', () => {
  const script = [
    `const { writeOncePerTurn } = await import(${JSON.stringify(new URL('../../local/output-per-turn.ts', import.meta.url).href)});`,
    'writeOncePerTurn(process.stdout);',
    "for (let i = 0; i < 100; i++) process.stdout.write('line ' + i + '\\n');",
    'process.exit(0);',
  ].join('\n');
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  expect(child.stdout).toBe(Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join(''));
});
