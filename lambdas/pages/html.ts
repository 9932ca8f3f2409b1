// pages -> escaping for the hosted pages. Every value that came from a request (the external
// reference, names, file names) passes through `escapeHtml` before it reaches markup; what goes into a
// stylesheet is only numbers, written by `cssNumber`, so nothing from a request can reach CSS.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and quoted attribute values. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/**
 * A finite number for a stylesheet, at most 4 decimals and never in exponent form; throws on NaN or
 * infinity, which would otherwise make a declaration the browser silently drops.
 */
export const cssNumber = (value: number): string => {
  if (!Number.isFinite(value)) throw new Error(`not a finite number for CSS: ${value}`);
  const rounded = Math.round(value * 10_000) / 10_000;
  // Below 1e-4 rounds to 0, so toString never gives exponent form (`1e-7`), which CSS would reject.
  return Object.is(rounded, -0) ? '0' : String(rounded);
};

/** A file name of safe characters only, for a `download` attribute. */
export const safeFileName = (value: string, fallback: string): string => {
  const cleaned = value
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return cleaned || fallback;
};
