// core -> a log entry as the JSON line machines read (CloudWatch, Lambda's JSON log format, `jq` on the
// local stack's output), in the shape Powertools for AWS Lambda's Logger printed before it: `level`,
// `message`, `timestamp`, `service`, `sampling_rate`, `xray_trace_id` inside Lambda, then the keys. A key
// whose value is null, undefined or '' is left out; an Error becomes `{name, location, message, stack,
// cause}`; a bigint its digits; a value met again inside itself (a cycle) is left out.
//
// Why not Powertools' Logger itself: it took about 20 µs a line (a replacer on every JSON.stringify,
// console's formatting, environment reads per line), a quarter of the CPU of a cached GET, which logs one
// line. Here a line of plain values is one JSON.stringify.

export type JsonLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

type Fields = Record<string, unknown>;

export interface JsonLineContext {
  service: string;
  /** X-Ray's `Root` of the invocation under way (`_X_AMZN_TRACE_ID`), inside Lambda. */
  xrayTraceId: string | undefined;
  /** The entry's time, ISO 8601 in UTC (`Date.prototype.toISOString`). */
  timestamp: string;
}

/** `file:line` of the frame that made the error: its stack's first `at …(file:line:column)`. */
const locationOf = (stack: string | undefined): string => {
  const frame = stack?.split('\n')[1];
  const match = frame && /\(?([^\s(]+):(\d+):\d+\)?$/.exec(frame.trim());
  return match ? `${match[1]}:${match[2]}` : '';
};

const errorFields = (error: Error): Fields => ({
  name: error.name,
  location: locationOf(error.stack),
  message: error.message,
  stack: error.stack,
  ...(error.cause !== undefined && {
    cause: error.cause instanceof Error ? errorFields(error.cause) : error.cause,
  }),
});

/** For the entries that hold more than plain values: Errors, bigints and cycles made printable. */
const safeReplacer = () => {
  const seen = new WeakSet<object>();
  return (_key: string, value: unknown): unknown => {
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Error) return errorFields(value);
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  };
};

const isEmpty = (value: unknown): boolean => value === null || value === undefined || value === '';

/** One log entry's JSON line (no newline). `keys` are the persistent, then the work's, then the line's. */
export const jsonLine = (
  level: JsonLevel,
  message: string,
  keys: readonly Fields[],
  { service, xrayTraceId, timestamp }: JsonLineContext,
): string => {
  const entry: Fields = {
    level,
    message,
    timestamp,
    service,
    sampling_rate: 0,
    ...(xrayTraceId !== undefined && { xray_trace_id: xrayTraceId }),
  };
  let plain = true;
  for (const fields of keys)
    for (const key in fields) {
      const value = fields[key];
      if (isEmpty(value)) continue;
      entry[key] = value;
      if (typeof value === 'object' || typeof value === 'bigint') plain = false;
    }
  return plain ? JSON.stringify(entry) : JSON.stringify(entry, safeReplacer());
};

/** X-Ray's `Root=…` id from Lambda's `_X_AMZN_TRACE_ID` (`Root=1-…;Parent=…;Sampled=…`). */
export const xrayRoot = (header: string | undefined): string | undefined => {
  if (!header) return undefined;
  const root = header.split(';').find((part) => part.startsWith('Root='));
  return root ? root.slice('Root='.length) : undefined;
};
