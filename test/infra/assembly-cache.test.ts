// infra -> the test suite's assembly cache (./assembly-cache.ts): a configuration is synthesised once for a
// version of the sources, and a changed source, another configuration or a failed synthesis gives a new one;
// the entry is the whole assembly, with no partial directory or lock left beside it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { CfnOutput, Stack } from 'aws-cdk-lib';
import { cachedAssembly } from './assembly-cache';
import { testApp } from './test-app';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});
const temporary = (prefix: string) => {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  directories.push(directory);
  return directory;
};

test('one synthesis per configuration and version of the sources; a failed one leaves nothing to reuse', () => {
  const project = temporary('assembly-cache-project-');
  const cacheRoot = temporary('assembly-cache-test-');
  const source = join(project, 'lib', 'source.txt');
  const write = (text: string) => {
    rmSync(dirname(source), { recursive: true, force: true });
    mkdirSync(dirname(source), { recursive: true });
    writeFileSync(source, text);
  };
  let syntheses = 0;
  /** A stack whose output is the source's text, as a synthesis reads the sources. */
  const synthesise = (outdir: string) => {
    syntheses += 1;
    const app = testApp({ outdir });
    new CfnOutput(new Stack(app, 'Cached'), 'Source', { value: readFileSync(source, 'utf8') });
    app.synth();
  };
  const assembly = (settings: unknown) =>
    cachedAssembly(
      { settings, what: 'a test stack', sources: ['lib'], projectRoot: project, cacheRoot },
      synthesise,
    );
  const sourceIn = (directory: string) =>
    JSON.parse(readFileSync(join(directory, 'Cached.template.json'), 'utf8')).Outputs.Source.Value;

  write('first');
  const first = assembly({ bundle: 'none' });
  expect(assembly({ bundle: 'none' })).toBe(first);
  expect(syntheses).toBe(1);
  expect(sourceIn(first)).toBe('first');

  write('second');
  const second = assembly({ bundle: 'none' });
  expect(syntheses).toBe(2);
  expect(second).not.toBe(first);
  expect(sourceIn(second)).toBe('second');
  expect(sourceIn(first)).toBe('first');

  const other = assembly({ bundle: 'all' });
  expect(syntheses).toBe(3);
  expect(other).not.toBe(second);

  const failing = { bundle: 'sandbox' };
  expect(() =>
    cachedAssembly(
      { settings: failing, what: 'a failing stack', sources: ['lib'], projectRoot: project, cacheRoot },
      () => {
        throw new Error('an unacknowledged finding');
      },
    ),
  ).toThrow('an unacknowledged finding');
  expect(sourceIn(assembly(failing))).toBe('second');
  expect(syntheses).toBe(4);

  expect(readdirSync(dirname(second)).sort()).toEqual(
    [basename(second), basename(other), basename(assembly(failing))].sort(),
  );
});
