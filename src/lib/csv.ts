/**
 * CSV cells for files people open in a spreadsheet (RFC 4180 quoting). Browser-safe and pure.
 *
 * A spreadsheet runs a cell starting with = + - @ (or a tab or carriage return) as a formula (CSV
 * injection, OWASP): such text is prefixed with an apostrophe so it is shown as text. Numbers are written
 * as they are: a negative number is a number, not a formula.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line (CRLF-terminated, as RFC 4180 writes them) of neutralised cells. */
export function csvLine(values: readonly (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
