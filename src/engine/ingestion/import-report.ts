import type { EntryOutcome } from './import-records';

/** The import report (issue items 6 and 7): every entry of the input is created, unchanged or skipped. */
export type ImportReport = {
  resources: number;
  created: Record<string, number>;
  unchanged: Record<string, number>;
  skipped: { resourceType: string; id: string; reason: string }[];
};

/**
 * Builds the report from the parser's outcomes and the database step's findings: `created` holds the
 * entries that wrote at least one new row; `lateSkips` entries the database step could not use.
 */
export function buildImportReport(
  entries: readonly EntryOutcome[],
  createdEntries: ReadonlySet<number>,
  lateSkips: ReadonlyMap<number, string> = new Map(),
): ImportReport {
  const report: ImportReport = { resources: entries.length, created: {}, unchanged: {}, skipped: [] };
  entries.forEach((entry, index) => {
    const reason = entry.skipReason ?? lateSkips.get(index) ?? null;
    if (reason !== null) {
      report.skipped.push({ resourceType: entry.resourceType, id: entry.id, reason });
    } else {
      const counts = createdEntries.has(index) ? report.created : report.unchanged;
      counts[entry.resourceType] = (counts[entry.resourceType] ?? 0) + 1;
    }
  });
  return report;
}
