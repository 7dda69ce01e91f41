/**
 * CSV as spreadsheets open it safely (RFC 4180 quoting): UTF-8 with a byte-order mark, so Excel
 * reads Arabic correctly, and every cell a spreadsheet could run as a formula (starting with `=`,
 * `+`, `-`, `@`, tab or carriage return) prefixed with `'`, as OWASP's CSV-injection guidance says
 * (https://owasp.org/www-community/attacks/CSV_Injection).
 */
export const UTF8_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
