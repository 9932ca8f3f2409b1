// unit -> the service's logger (lambdas/core/log.ts): JSON lines from Powertools' Logger, each with the
// keys of the work it belongs to, kept apart between interleaved pieces of work.
import { log, setPersistentLogKeys, withLogKeys } from '../../lambdas/core/log';
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
});
