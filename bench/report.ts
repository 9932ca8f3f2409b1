// bench -> small helpers to print figures: a plain text table, medians and number formats.

/** Columns padded to their widest cell; numbers-looking cells right-aligned. */
export const table = (rows: string[][]): string => {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  const numeric = /^[-+]?[\d.,]+(\s?\S{0,4})?$/;
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          numeric.test(cell) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

export const mean = (values: number[]): number =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export const ms = (value: number) => `${value.toFixed(0)} ms`;
export const mib = (value: number) => `${value.toFixed(1)} MiB`;
export const ratio = (value: number) => `${value.toFixed(2)}x`;
export const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** "met" or "MISSED", for a goal line. */
export const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
