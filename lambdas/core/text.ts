// core -> "printable characters": any Unicode text without control characters (C0, DEL, C1) or
// unpaired surrogates, counted in characters (code points), not UTF-16 units.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const isPrintableText = (value: string, maxCharacters: number): boolean => {
  if (value.length === 0 || CONTROL.test(value) || !value.isWellFormed()) return false;
  return [...value].length <= maxCharacters;
};
