// unit -> the stack's log as a person at a terminal reads it (lambdas/core/log-lines.ts): a request as one
// line with its status coloured, other entries as `LEVEL message key=value`, an error's stack below it,
// and nothing below the level asked for.
import { formatLine, type LineOptions } from '../../lambdas/core/log-lines';

const AT = new Date(2026, 10, 26, 7, 41, 2, 118);
const PLAIN: LineOptions = { colour: false, level: 'info' };
const COLOUR: LineOptions = { colour: true, level: 'info' };

const request = (status: number, path = '/v1/contract-reviews') => ({
  service_request_id: 'rqs_abc',
  environment: 'sandbox',
  method: 'POST',
  path,
  status,
  duration_ms: 61,
});

describe('formatLine', () => {
  test('a request is one line: time, environment, method, path, status, duration and request id', () => {
    expect(formatLine('info', 'request', request(202), PLAIN, AT)).toBe(
      '07:41:02.118 sandbox    POST   /v1/contract-reviews 202 61 ms rqs_abc',
    );
  });

  test.each([
    [202, '\u001b[32m202\u001b[0m'],
    [404, '\u001b[33m404\u001b[0m'],
    [503, '\u001b[31m503\u001b[0m'],
  ])('in colour, status %d is green, yellow or red', (status, painted) => {
    expect(formatLine('info', 'request', request(status), COLOUR, AT)).toContain(` ${painted} `);
    expect(formatLine('info', 'request', request(status), PLAIN, AT)).not.toContain('\u001b[');
  });

  test('a long path a client sent is cut, so that one request stays one line', () => {
    const line = formatLine('info', 'request', request(404, `/v1/${'x'.repeat(500)}`), PLAIN, AT) ?? '';
    expect(line).toContain(`/v1/${'x'.repeat(116)}… 404`);
    expect(line).not.toContain('\n');
  });

  test('another entry shows its level, message and fields, quoting only values that need it', () => {
    const line = formatLine(
      'warn',
      'pages shown in part',
      { id: 'crv_1', reason: 'two pages failed', pages: [2, 5], empty: '', count: 3 },
      PLAIN,
      AT,
    );
    expect(line).toBe(
      '07:41:02.118 WARN  pages shown in part id=crv_1 reason="two pages failed" pages=[2,5] empty="" count=3',
    );
  });

  test("an error's message follows the fields and its stack is indented below", () => {
    const error = new TypeError('x is undefined');
    const line = formatLine('error', 'unhandled fault', { error, id: 'crv_1' }, PLAIN, AT) ?? '';
    const [head, ...stack] = line.split('\n');
    expect(head).toBe('07:41:02.118 ERROR unhandled fault id=crv_1 error="TypeError: x is undefined"');
    expect(stack.length).toBeGreaterThan(0);
    for (const frame of stack) expect(frame).toMatch(/^ {4}at /);
  });

  test('entries below the level shown are left out', () => {
    expect(formatLine('debug', 'detail', {}, PLAIN, AT)).toBeNull();
    expect(formatLine('info', 'run started', {}, { colour: false, level: 'warn' }, AT)).toBeNull();
    expect(formatLine('warn', 'degraded', {}, { colour: false, level: 'warn' }, AT)).toBe(
      '07:41:02.118 WARN  degraded',
    );
  });
});
