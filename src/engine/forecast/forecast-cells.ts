/**
 * The demand forecast as sums of per-history counts (docs/decisions/057): everything the model reads from a
 * history — does it feed the fit, its persistence subjects, its episode starts' units, its state if still on
 * therapy, its refill lateness — as integer-counted cells (part, key) that add over histories and patients and
 * subtract exactly. The forecast is then a function of the summed cells alone, iterated in a canonical (sorted)
 * order, so the same cells give bit-identical figures however they were summed: per request from every fill, or
 * from a stored pre-aggregate corrected for patients whose fills changed.
 */
import { episodesOf, type Fill, PERMISSIBLE_GAP_DAYS, survivalSubject } from './persistence';
import { completeMonthsBefore } from './months';
import { supplyEnds } from './refill-lateness';

/** Fills in the last this many days before the as-of day feed the fit. */
export const FIT_LOOKBACK_DAYS = 730;
/** Complete months before the as-of day whose episode starts give the start rate. */
export const START_RATE_MONTHS = 3;
/** Refill intervals and units taken from at most this many of an episode's last fills. */
export const RECENT_FILLS = 6;

/** Summed counts, keyed `${part}|${key}`; a zero count is removed, so equal sums are equal maps. */
export type ForecastCells = Map<string, number>;

/** Cell parts: h histories feeding the fit; se/sc subject times with an event / censored; u units of an episode
 * start in the rate months; c a current therapy (start, last fill, supply end, interval, units); r a refill's
 * lateness; x fills known to have been followed by a stop. */
export type ForecastCellPart = 'h' | 'se' | 'sc' | 'u' | 'c' | 'r' | 'x';

export function addCell(cells: ForecastCells, part: string, key: string | number, n: number): void {
  if (n === 0) return;
  const name = `${part}|${key}`;
  const sum = (cells.get(name) ?? 0) + n;
  if (sum === 0) cells.delete(name);
  else cells.set(name, sum);
}

/** Adds (sign 1) or takes out (sign −1) cells given as [name, n] pairs. */
export function addCells(cells: ForecastCells, entries: Iterable<readonly [string, number]>, sign = 1): void {
  for (const [name, n] of entries) {
    const separator = name.indexOf('|');
    addCell(cells, name.slice(0, separator), name.slice(separator + 1), sign * n);
  }
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * One history's cells (prefixed `prefix`, e.g. 'f.' for the forecast, 'b.' for the backtest's fit) as of `asOf`:
 * only fills before it are read; a history without a fill in the fitting window adds nothing.
 */
export function addHistoryCells(cells: ForecastCells, history: readonly Fill[], asOf: number, prefix = ''): boolean {
  const fitStart = asOf - FIT_LOOKBACK_DAYS;
  const rateMonths = completeMonthsBefore(asOf, START_RATE_MONTHS);
  const rateStart = rateMonths[0]!.start;
  const rateEnd = rateMonths[rateMonths.length - 1]!.end;
  const known = history.filter((fill) => fill.day < asOf).sort((left, right) => left.day - right.day);
  const inWindow = known.filter((fill) => fill.day >= fitStart);
  if (inWindow.length === 0) return false;
  addCell(cells, `${prefix}h`, '', 1);
  // Episodes over everything known, so an episode begun before the window keeps its true start.
  const episodes = episodesOf(known, asOf).filter((episode) => episode.end >= fitStart);
  for (const episode of episodes) {
    const subject = survivalSubject(episode);
    addCell(cells, `${prefix}${subject.event ? 'se' : 'sc'}`, subject.time, 1);
    // Episode starts in the rate months: new patients and restarts after a gap longer than permitted.
    if (episode.start >= rateStart && episode.start < rateEnd) addCell(cells, `${prefix}u`, episode.fills[0]!.units, 1);
  }
  const last = episodes[episodes.length - 1];
  if (last !== undefined && !last.stopped) {
    const recent = last.fills.slice(-RECENT_FILLS - 1);
    const gaps = recent.slice(1).map((fill, index) => fill.day - recent[index]!.day);
    const lastFill = recent[recent.length - 1]!;
    const state = [
      last.start,
      lastFill.day,
      supplyEnds(last.fills).at(-1)!,
      Math.max(1, median(gaps) ?? lastFill.daysSupply),
      median(recent.slice(-RECENT_FILLS).map((fill) => fill.units)) ?? 0,
    ];
    addCell(cells, `${prefix}c`, state.join(','), 1);
  }
  // Refill lateness over the window's fills (as observeRefillLateness): refilled within the gap, or stopped.
  let end = -Infinity;
  for (let index = 0; index < inWindow.length; index += 1) {
    const fill = inWindow[index]!;
    end = Math.max(fill.day, end) + fill.daysSupply;
    const next = inWindow[index + 1];
    if (next !== undefined) {
      const lateness = next.day - end;
      if (lateness <= PERMISSIBLE_GAP_DAYS) addCell(cells, `${prefix}r`, lateness, 1);
      else addCell(cells, `${prefix}x`, '', 1);
    } else if (end + PERMISSIBLE_GAP_DAYS < asOf) addCell(cells, `${prefix}x`, '', 1);
  }
  return true;
}

/** The forecast's inputs read back from summed cells (prefix as written), in ascending key order. */
export type ForecastInputs = {
  histories: number;
  /** [time, events, censored], ascending time. */
  subjects: [number, number, number][];
  /** [units, count], ascending. */
  startUnits: [number, number][];
  /** [start, last fill, supply end, interval, units, count], ascending. */
  current: [number, number, number, number, number, number][];
  /** [lateness, count], ascending. */
  refilled: [number, number][];
  stopped: number;
};

export function forecastInputsOf(cells: ForecastCells, prefix = ''): ForecastInputs {
  const subjects = new Map<number, [number, number, number]>();
  const inputs: ForecastInputs = { histories: 0, subjects: [], startUnits: [], current: [], refilled: [], stopped: 0 };
  for (const [name, n] of cells) {
    if (!name.startsWith(prefix)) continue;
    const separator = name.indexOf('|');
    const part = name.slice(prefix.length, separator);
    const key = name.slice(separator + 1);
    switch (part) {
      case 'h':
        inputs.histories += n;
        break;
      case 'se':
      case 'sc': {
        const time = Number(key);
        const subject = subjects.get(time) ?? [time, 0, 0];
        subject[part === 'se' ? 1 : 2] += n;
        subjects.set(time, subject);
        break;
      }
      case 'u':
        inputs.startUnits.push([Number(key), n]);
        break;
      case 'c': {
        const [start, lastFill, supplyEnd, interval, units] = key.split(',').map(Number) as [number, number, number, number, number];
        inputs.current.push([start, lastFill, supplyEnd, interval, units, n]);
        break;
      }
      case 'r':
        inputs.refilled.push([Number(key), n]);
        break;
      case 'x':
        inputs.stopped += n;
        break;
      default:
        break;
    }
  }
  const byTuple = (left: readonly number[], right: readonly number[]) => {
    for (let index = 0; index < left.length; index += 1) if (left[index] !== right[index]) return left[index]! - right[index]!;
    return 0;
  };
  inputs.subjects = [...subjects.values()].sort(byTuple);
  inputs.startUnits.sort(byTuple);
  inputs.current.sort(byTuple);
  inputs.refilled.sort(byTuple);
  return inputs;
}
