// host -> a deployed function's stack traces in its sources' files and lines, read from the bundle's
// source map only when a stack is first written out. Node's `--enable-source-maps` reads and parses the
// map when the bundle loads, which costs every cold start 30–40 ms (bench -- functions) for traces that
// are rarely written; here the cost falls on the first error whose stack is read. lib/service-function.ts
// injects this module into every function's bundle (esbuild `inject`), so it runs before any other code.
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapping } from 'node:module';
import { fileURLToPath } from 'node:url';

type Frame = Pick<
  NodeJS.CallSite,
  'getFileName' | 'getLineNumber' | 'getColumnNumber' | 'getFunctionName'
> & { toString(): string };

/** A place in the sources; `name` is there when the map names the identifier (Node's types omit it). */
type Entry = SourceMapping & { name?: string };

/** The map's entry at a 1-based line and column of the bundle, where it has one. */
const entryAt = (map: SourceMap, line: number | null, column: number | null): Entry | undefined => {
  if (line === null || column === null) return undefined;
  const entry = map.findEntry(line - 1, column - 1);
  return 'originalSource' in entry ? (entry as Entry) : undefined;
};

/**
 * A frame's text with its place in the bundle replaced by its place in the sources, and its function's
 * minified name by the source's: the name the frame below calls it by (V8 places a call at its callee's
 * name). A frame called from outside the bundle keeps its minified name (the map's name at a function's
 * start may be a parameter's).
 */
const mappedFrame = (frames: readonly Frame[], index: number, bundleUrl: string, map: SourceMap): string => {
  const frame = frames[index] as Frame;
  const text = frame.toString();
  const file = frame.getFileName();
  const line = frame.getLineNumber();
  const column = frame.getColumnNumber();
  const entry = file === bundleUrl ? entryAt(map, line, column) : undefined;
  if (!entry) return text;
  const caller = frames[index + 1];
  const name =
    caller?.getFileName() === bundleUrl
      ? entryAt(map, caller.getLineNumber(), caller.getColumnNumber())?.name
      : undefined;
  const minified = frame.getFunctionName();
  const place = `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  const placed = text.replace(`${file}:${line}:${column}`, place);
  return name && minified ? placed.replace(minified, name) : placed;
};

/** The first line of a stack as V8 writes it, never throwing (an error's `toString` may). */
const headline = (error: unknown): string => {
  try {
    return String(error);
  } catch {
    return 'Error';
  }
};

/**
 * Makes every stack written from now on name the sources' files and lines of frames in `bundleUrl`,
 * (an ES module's `file:` URL, as V8 names its frames' files), with its map (`<bundle>.map`) read once, on the first stack written. A missing or unreadable map
 * leaves the bundle's own places: writing a stack never fails for the map's sake.
 */
export const mapStacksOnDemand = (bundleUrl: string): void => {
  let map: SourceMap | null | undefined;
  const loaded = (): SourceMap | undefined => {
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(bundleUrl)}.map`, 'utf8')));
      } catch {
        map = null;
      }
    }
    return map ?? undefined;
  };
  Error.prepareStackTrace = (error, frames) => {
    const map = frames.some((frame) => frame.getFileName() === bundleUrl) ? loaded() : undefined;
    const lines = frames.map((frame, index) =>
      map ? mappedFrame(frames, index, bundleUrl, map) : frame.toString(),
    );
    return headline(error) + lines.map((line) => `\n    at ${line}`).join('');
  };
};

mapStacksOnDemand(import.meta.url);
