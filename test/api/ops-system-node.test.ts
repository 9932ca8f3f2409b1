// api -> the operator tool as a reader starts it outside npm (`node --import tsx bin/ops.ts`, as the
// README's walk-through does for `ops listen`), under the system's Node: its stdout is JSON lines only and
// an error is one `ops: …` line on stderr, with no notice of the AWS SDK's about the Node it runs on (on
// Node 20 the SDK warns that its 2027 releases need Node 22; nine lines a script reading the output
// cannot use).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readerEnv } from '../support/reader-shell';

test('ops under the system Node: an error is one line on stderr, with no SDK notice', async () => {
  // No stack on these ports: the tool builds its storage clients, then says the stack is not running.
  const env = readerEnv({ PORT_BASE: '9500', DATA_DIR: '/nonexistent-ops-data' });
  const ran = await promisify(execFile)('node', ['--import', 'tsx', 'bin/ops.ts', 'budget', 'org_localdev'], {
    env,
  }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  expect(ran).toMatchObject({ code: 1, stdout: '' });
  const { stderr } = ran as { stderr: string };
  expect(stderr).toMatch(/^ops: the local stack is not running/);
  expect(stderr.trim().split('\n')).toHaveLength(1);
});
