// test support -> directories a test file writes in, each removed when the file's tests end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A maker of fresh directories under the system's temporary one, and a way to hand over any other
 * cleanup, all run after the calling file's tests (call it at the file's top level).
 */
export const scratchDirsOfThisFile = () => {
  const removals: Array<() => void> = [];
  afterAll(() => {
    for (const remove of removals) remove();
  });
  return {
    make: (prefix: string): string => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      removals.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
    removeAfterAll: (remove: () => void): void => {
      removals.push(remove);
    },
  };
};
