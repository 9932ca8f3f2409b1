// frontend -> what the front ends' in-memory esbuild builds share (frontend/onboarding/build.ts,
// frontend/portal/build.ts): the one output file of a kind, and the type a built file is served with.
import type { OutputFile } from 'esbuild';

export const contentTypeOf = (file: string): string =>
  file.endsWith('.js')
    ? 'text/javascript; charset=utf-8'
    : file.endsWith('.css')
      ? 'text/css; charset=utf-8'
      : 'application/octet-stream';

/** The build's one output file ending in `extension`; a build that made none or several is a fault. */
export const single = (files: OutputFile[], extension: string): OutputFile => {
  const found = files.filter((file) => file.path.endsWith(extension));
  if (found.length !== 1) throw new Error(`expected one ${extension} file from esbuild, got ${found.length}`);
  return found[0]!;
};
