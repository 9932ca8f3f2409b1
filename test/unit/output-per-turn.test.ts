// The local stack's standard output, one write per turn of the event loop: every line a turn writes
// reaches the stream in order in one writev, and lines still held when the process exits are written.
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { writeOncePerTurn } from '../../local/output-per-turn';

/** A stream that notes each call of the underlying write: single chunks and gathered ones. */
const countingStream = () => {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      calls.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      calls.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, calls };
};

test("a turn's lines reach the stream in one write, in order; the next turn's in another", async () => {
  const { stream, calls } = countingStream();
  writeOncePerTurn(stream);
  for (let i = 0; i < 50; i++) stream.write(`line ${i}\n`);
  expect(calls).toEqual([]);
  await nextTurn();
  stream.write('later\n');
  await nextTurn();
  expect(calls).toEqual([Array.from({ length: 50 }, (_, i) => `line ${i}\n`), ['later\n']]);
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
