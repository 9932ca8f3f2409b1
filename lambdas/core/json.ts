// core -> JSON that a person sent, parsed with its nesting bounded. Nothing the service reads nests
// deeper than a few levels, while a body of a few kilobytes can nest thousands deep and overflow the
// stack of whatever walks it recursively afterwards (`JSON.stringify`, a schema check).

/** The deepest nesting of arrays and objects accepted: far beyond any body the interface defines. */
export const MAX_JSON_DEPTH = 32;

export type ParsedJson = { ok: true; value: unknown } | { ok: false; problem: string };

/** Whether `value` nests arrays and objects deeper than `max` (walked without recursion). */
const nestsDeeperThan = (value: unknown, max: number): boolean => {
  const pending: Array<[unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
};

/** `text` as JSON, or what is wrong with it in words: not JSON, or nested too deep. */
export const parseJson = (text: string): ParsedJson => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'it is not JSON' };
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH))
    return { ok: false, problem: `it nests arrays and objects more than ${MAX_JSON_DEPTH} deep` };
  return { ok: true, value };
};
