// unit -> the service's logger (lambdas/core/log.ts): JSON lines in the shape Powertools' Logger printed
// (log-json.ts), each with the keys of the work it belongs to, kept apart between interleaved pieces of work.
import { levelFromEnvironment, log, setPersistentLogKeys, withLogKeys } from '../../lambdas/core/log';
import { jsonLine, xrayRoot } from '../../lambdas/core/log-json';
import { linesOf } from '../support/log-capture';

describe('log', () => {
  test('a line is JSON with its level, message, service, the persistent keys and its fields', async () => {
    setPersistentLogKeys({ function: 'test-function' });
    const [line] = await linesOf(async () =>
      log.warn('pages shown in part', { id: 'crv_1', pages: [{ number: 2 }] }),
    );
    expect(line).toMatchObject({
      level: 'WARN',
      message: 'pages shown in part',
      service: 'contract-service',
      function: 'test-function',
      id: 'crv_1',
      pages: [{ number: 2 }],
      timestamp: expect.any(String),
    });
  });

  test('an error is logged with its name, message and stack', async () => {
    const [line] = await linesOf(async () =>
      log.error('unhandled fault', { error: new TypeError('x is undefined') }),
    );
    expect(line?.error).toMatchObject({
      name: 'TypeError',
      message: 'x is undefined',
      stack: expect.any(String),
    });
  });

  test('something thrown that is not an Error is logged as its text, an object with its fields', async () => {
    const lines = await linesOf(async () => {
      log.warn('a string was thrown', { error: 'the queue is gone' });
      log.warn('an object was thrown', { error: { code: 7 } });
      log.info('an attempt answered', { error: null });
    });
    // null is no error: the line has none (Powertools leaves out empty keys), not the text "null".
    expect(lines.map((line) => line.error)).toEqual(['the queue is gone', '{ code: 7 }', undefined]);
  });

  test('each piece of work logs its own keys, even interleaved, and nothing leaks after it', async () => {
    const lines = await linesOf(async () => {
      const step = () => new Promise((resolve) => setImmediate(resolve));
      const request = (id: string) =>
        withLogKeys({ service_request_id: id, environment: 'sandbox' }, async () => {
          await step();
          log.info('answering');
          await step();
          log.info('answered');
        });
      await Promise.all([request('rqs_a'), request('rqs_b')]);
      log.info('outside');
    });
    const byRequest = (id: string) =>
      lines.filter((line) => line.service_request_id === id).map((line) => line.message);
    expect(byRequest('rqs_a')).toEqual(['answering', 'answered']);
    expect(byRequest('rqs_b')).toEqual(['answering', 'answered']);
    expect(lines.at(-1)).toMatchObject({ message: 'outside' });
    expect(lines.at(-1)).not.toHaveProperty('service_request_id');
  });

  test('a debug line is not written at the default level; a warning goes to stderr, info to stdout', async () => {
    const written: Array<[string, string]> = [];
    const streams = { stdout: process.stdout, stderr: process.stderr } as const;
    const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
    for (const name of ['stdout', 'stderr'] as const)
      streams[name].write = ((chunk: string) => {
        written.push([name, JSON.parse(chunk).message]);
        return true;
      }) as typeof process.stdout.write;
    try {
      log.debug('details');
      log.info('request');
      log.warn('slow');
      log.error('fault');
    } finally {
      process.stdout.write = writes.stdout;
      process.stderr.write = writes.stderr;
    }
    expect(written).toEqual([
      ['stdout', 'request'],
      ['stderr', 'slow'],
      ['stderr', 'fault'],
    ]);
  });

  test("the level: ours (INFO unset), Lambda's when it is stricter, Powertools' names understood", () => {
    expect(levelFromEnvironment({})).toBe('info');
    expect(levelFromEnvironment({ POWERTOOLS_LOG_LEVEL: 'DEBUG' })).toBe('debug');
    expect(levelFromEnvironment({ LOG_LEVEL: 'trace' })).toBe('debug');
    expect(levelFromEnvironment({ POWERTOOLS_LOG_LEVEL: 'debug', AWS_LAMBDA_LOG_LEVEL: 'WARN' })).toBe(
      'warn',
    );
    expect(levelFromEnvironment({ POWERTOOLS_LOG_LEVEL: 'error', AWS_LAMBDA_LOG_LEVEL: 'INFO' })).toBe(
      'error',
    );
    expect(levelFromEnvironment({ POWERTOOLS_LOG_LEVEL: 'critical' })).toBe('error');
    expect(levelFromEnvironment({ POWERTOOLS_LOG_LEVEL: 'loud' })).toBe('info');
  });

  test('an Error nested in a field, a bigint and a cycle still make one JSON line', async () => {
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    const [line] = await linesOf(async () =>
      log.warn('odd values', { attempt: { error: new RangeError('too far') }, size: 10n, cycle }),
    );
    expect(line).toMatchObject({
      attempt: {
        error: { name: 'RangeError', message: 'too far', location: expect.stringContaining('log.test.ts') },
      },
      size: '10',
      cycle: { name: 'loop' },
    });
    expect(line?.cycle).not.toHaveProperty('self');
  });
});

describe('jsonLine', () => {
  const at = {
    service: 'contract-service',
    xrayTraceId: undefined,
    timestamp: '2026-11-28T10:00:00.123Z',
  };

  test("the fixed keys first, in Powertools' order, then persistent, the work's and the line's keys", () => {
    const text = jsonLine(
      'INFO',
      'request',
      [{ function: 'api' }, { service_request_id: 'rqs_1' }, { status: 200 }],
      {
        ...at,
        xrayTraceId: '1-abc-def',
      },
    );

    expect(text).toBe(
      '{"level":"INFO","message":"request","timestamp":"2026-11-28T10:00:00.123Z","service":"contract-service",' +
        '"sampling_rate":0,"xray_trace_id":"1-abc-def","function":"api","service_request_id":"rqs_1","status":200}',
    );
  });

  test("a key whose value is null, undefined or '' is left out; a later key's value wins", () => {
    const line = JSON.parse(
      jsonLine(
        'WARN',
        'm',
        [
          { a: 1, b: 'x' },
          { a: 2, empty: '', none: null, gone: undefined },
        ],
        at,
      ),
    );

    expect(line).toEqual(expect.objectContaining({ a: 2, b: 'x' }));
    for (const key of ['empty', 'none', 'gone']) expect(line).not.toHaveProperty(key);
  });

  test("an Error's cause is formatted as an error too", () => {
    const error = new Error('outer', { cause: new TypeError('inner') });
    const line = JSON.parse(jsonLine('ERROR', 'm', [{ error }], at));

    expect(line.error).toMatchObject({
      name: 'Error',
      message: 'outer',
      cause: { name: 'TypeError', message: 'inner' },
    });
  });

  test("X-Ray's Root is read from Lambda's trace header, and none from none", () => {
    expect(xrayRoot('Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1')).toBe(
      '1-5759e988-bd862e3fe1be46a994272793',
    );
    expect(xrayRoot('Parent=53995c3f42cd8ad8')).toBeUndefined();
    expect(xrayRoot(undefined)).toBeUndefined();
  });
});
