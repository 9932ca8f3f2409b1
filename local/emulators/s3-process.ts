// local -> the local S3 twin as a process of its own: `startLocalS3` (local/emulators/s3-server.ts) runs this
// file with tsx as `<directory> <port>` over an IPC channel, and is sent `{ endpoint }` once the twin
// listens (or `{ error }`). It stops on SIGTERM, and when the channel closes: the process that started
// it has gone, however it ended, so the twin is never left behind. SIGINT is ignored, as a terminal's
// Ctrl-C reaches the whole process group and the stack stops the twin itself, after its own servers.
import { log } from '../../lambdas/core/log';
import { serveLocalS3 } from './s3-server';

const [directory, portText] = process.argv.slice(2);
const port = Number(portText);
if (!process.send || !directory || !Number.isInteger(port) || port < 0) {
  log.error('local-s3-process: started by startLocalS3 with <directory> <port> and an IPC channel');
  process.exit(2);
}

let stopping = false;
let stopTwin: () => Promise<void> = async () => {};
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void stopTwin().finally(() => process.exit(0));
};
process.on('SIGINT', () => {});
process.once('SIGTERM', stop);
process.once('disconnect', stop);

try {
  const twin = await serveLocalS3(directory, port);
  stopTwin = twin.stop;
  if (!process.connected) stop();
  else process.send({ endpoint: twin.endpoint });
} catch (error) {
  if (process.connected) process.send({ error: (error as Error).message }, () => process.exit(1));
  else process.exit(1);
}
