import 'server-only';
/**
 * The compliance journey page suppressed as one page (issue 10 item 6): every count it shows — cohort,
 * months, PDC bands, persona and product sizes, their monthly numbers of patients, the adherent counts
 * behind the shares, numbers at risk — becomes one cell of a page description, with every relation a
 * reader can see between them, and `suppressPage` hides cells until no small group can be worked out from
 * the page as a whole. Shares, quartiles and survival of a hidden count are hidden with it.
 */
import {
  type HiddenReason,
  hiddenFigures,
  type PageCell,
  type PageDescription,
  type SumRelation,
  type OrderRelation,
  suppressPage,
} from '@/engine/aggregation/page-suppression';
import { hiddenCount, type ShownCount, shownCount, SMALL_CELL_THRESHOLD } from '@/engine/aggregation/small-cell-suppression';
import type { ComplianceJourney, GroupMonthlyPdc, PersistenceCurve } from './get-compliance-journey';

export type JourneyPage = Pick<ComplianceJourney, 'cohort' | 'pdcByMonth' | 'pdcByPersona' | 'pdcByProduct' | 'persistence' | 'withheld'>;

const ADHERENT_BAND = 'at-least-0.8';

/** `figures` computed without suppression, returned with every cell the whole-page suppression hides hidden. */
export function suppressJourneyPage(figures: JourneyPage): JourneyPage {
  const cells = new Map<string, PageCell>();
  const sums: SumRelation[] = [];
  const orders: OrderRelation[] = [];
  /** Derived figures (shares, quartiles, survival) and the counts they rest on. */
  const derived: Record<string, string[]> = {};
  const countOf = (value: ShownCount) => value.count ?? 0;
  const add = (cell: PageCell) => {
    cells.set(cell.id, cell);
    return cell.id;
  };

  const cohort = countOf(figures.cohort.patients);
  add({ id: 'cohort', count: cohort });
  if (figures.cohort.synthetic !== null) {
    const synthetic = countOf(figures.cohort.synthetic);
    add({ id: 'synthetic', count: synthetic });
    add({ id: 'real', count: cohort - synthetic, display: 'never' });
    sums.push({ total: 'cohort', parts: ['synthetic', 'real'] });
  }

  figures.pdcByMonth.forEach((month) => {
    const id = add({ id: `month:${month.month}`, count: countOf(month.patients) });
    const bands = month.bands.map((band) => add({ id: `band:${month.month}:${band.key}`, count: countOf(band.patients) }));
    if (bands.length > 0) sums.push({ total: id, parts: bands });
    const adherentBand = month.bands.some((band) => band.key === ADHERENT_BAND) ? `band:${month.month}:${ADHERENT_BAND}` : null;
    if (adherentBand !== null) {
      const adherent = cells.get(adherentBand)!.count;
      add({ id: `non-adherent:${month.month}`, count: countOf(month.patients) - adherent, display: 'never' });
      sums.push({ total: id, parts: [adherentBand, `non-adherent:${month.month}`] });
    }
    derived[`month:${month.month}:quartiles`] = [id];
    derived[`month:${month.month}:share`] = adherentBand === null ? [id] : [id, adherentBand];
  });

  const dimensions = [
    { name: 'persona', groups: figures.pdcByPersona, curves: figures.persistence.byPersona },
    { name: 'product', groups: figures.pdcByProduct, curves: figures.persistence.byProduct },
  ] as const;
  for (const { name, groups, curves } of dimensions) {
    const sizes = groups.map((group) => add({ id: `${name}:${group.key}`, count: countOf(group.patients) }));
    if (sizes.length > 0) sums.push({ total: 'cohort', parts: sizes });
    for (const curve of curves) if (!cells.has(`${name}:${curve.key}`)) add({ id: `${name}:${curve.key}`, count: countOf(curve.patients) });
    figures.pdcByMonth.forEach((month, monthIndex) => {
      const parts = groups.map((group) => groupMonthCells(name, group, monthIndex, add, sums, orders, derived));
      if (parts.length === 0) return;
      sums.push({ total: `month:${month.month}`, parts: parts.map((part) => part.patients) });
      if (cells.has(`non-adherent:${month.month}`)) {
        sums.push({ total: `band:${month.month}:${ADHERENT_BAND}`, parts: parts.map((part) => part.adherent) });
        sums.push({ total: `non-adherent:${month.month}`, parts: parts.map((part) => part.nonAdherent) });
      }
    });
  }

  // Numbers at risk: month 0 is the group itself; they never grow; each month's groups add up to the month's overall number.
  const riskIdsOf = new Map<string, string[]>();
  const riskIds = (prefix: string, size: string, curve: PersistenceCurve) => {
    const ids: string[] = [];
    curve.points.forEach((point, index) => {
      const count = countOf(point.atRisk);
      const id = index === 0 && cells.get(size)?.count === count ? size : add({ id: `${prefix}:${point.month}`, count });
      if (index > 0) orders.push({ smaller: id, larger: ids[index - 1]! });
      derived[`${prefix}:${point.month}:persisting`] = [size, id];
      ids.push(id);
    });
    riskIdsOf.set(prefix, ids);
    return ids;
  };
  const overallRisk = riskIds('at-risk:all', 'cohort', figures.persistence.overall);
  for (const { name, curves } of dimensions) {
    const byCurve = curves.map((curve) => riskIds(`at-risk:${name}:${curve.key}`, `${name}:${curve.key}`, curve));
    if (byCurve.length > 0) overallRisk.forEach((total, index) => sums.push({ total, parts: byCurve.map((ids) => ids[index]!) }));
  }

  const page: PageDescription = { cells: [...cells.values()], sums, orders };
  const result = suppressPage(page);
  // Were a group left narrower than required with nothing near it to hide (never seen so far), hide every count.
  const hidden: ReadonlyMap<string, HiddenReason> =
    result.unresolved.length === 0
      ? result.hidden
      : new Map(
          page.cells
            .filter((cell) => cell.count > 0 && cell.display !== 'never')
            .map((cell) => [cell.id, cell.count < SMALL_CELL_THRESHOLD ? 'small' : 'complementary']),
        );
  const hiddenDerived = hiddenFigures(derived, hidden);
  const show = (id: string, count: number): ShownCount => {
    const reason: HiddenReason | undefined = hidden.get(id);
    return reason === undefined ? shownCount(count) : hiddenCount(reason);
  };

  const groupMonthly = (name: 'persona' | 'product', groups: readonly GroupMonthlyPdc[]): GroupMonthlyPdc[] =>
    groups.map((group) => ({
      ...group,
      patients: show(`${name}:${group.key}`, countOf(group.patients)),
      months: group.months.map((month) => {
        const id = `${name}:${group.key}:${month.month}`;
        return {
          ...month,
          patients: show(id, countOf(month.patients)),
          quartiles: hiddenDerived.has(`${id}:quartiles`) ? null : month.quartiles,
          adherentShare: hiddenDerived.has(`${id}:share`) ? null : month.adherentShare,
        };
      }),
    }));
  const suppressCurve = (prefix: string, size: string, curve: PersistenceCurve, ids: readonly string[]): PersistenceCurve => ({
    ...curve,
    patients: show(size, countOf(curve.patients)),
    points: curve.points.map((point, index) => ({
      ...point,
      atRisk: show(ids[index]!, countOf(point.atRisk)),
      persisting: hiddenDerived.has(`${prefix}:${point.month}:persisting`) ? null : point.persisting,
    })),
  });
  const curvesOf = (name: 'persona' | 'product', curves: readonly PersistenceCurve[]) =>
    curves.map((curve) =>
      suppressCurve(`at-risk:${name}:${curve.key}`, `${name}:${curve.key}`, curve, riskIdsOf.get(`at-risk:${name}:${curve.key}`)!),
    );

  return {
    cohort: {
      patients: show('cohort', cohort),
      synthetic: figures.cohort.synthetic === null ? null : show('synthetic', countOf(figures.cohort.synthetic)),
      hasSynthetic: figures.cohort.hasSynthetic,
    },
    pdcByMonth: figures.pdcByMonth.map((month) => ({
      ...month,
      patients: show(`month:${month.month}`, countOf(month.patients)),
      quartiles: hiddenDerived.has(`month:${month.month}:quartiles`) ? null : month.quartiles,
      adherentShare: hiddenDerived.has(`month:${month.month}:share`) ? null : month.adherentShare,
      bands: month.bands.map((band) => ({ ...band, patients: show(`band:${month.month}:${band.key}`, countOf(band.patients)) })),
    })),
    pdcByPersona: groupMonthly('persona', figures.pdcByPersona),
    pdcByProduct: groupMonthly('product', figures.pdcByProduct),
    persistence: {
      overall: suppressCurve('at-risk:all', 'cohort', figures.persistence.overall, overallRisk),
      byPersona: curvesOf('persona', figures.persistence.byPersona),
      byProduct: curvesOf('product', figures.persistence.byProduct),
    },
    withheld: figures.withheld,
  };
}

/**
 * One group's cells in one month: patients followed, and behind the share with PDC ≥ 0.8 the adherent
 * count (shown through the share, so only with the group's number) and the non-adherent rest (never shown).
 */
function groupMonthCells(
  name: string,
  group: GroupMonthlyPdc,
  monthIndex: number,
  add: (cell: PageCell) => string,
  sums: SumRelation[],
  orders: OrderRelation[],
  derived: Record<string, string[]>,
) {
  const month = group.months[monthIndex]!;
  const patients = month.patients.count ?? 0;
  const id = add({ id: `${name}:${group.key}:${month.month}`, count: patients });
  const adherentCount = month.adherentShare === null || patients === 0 ? 0 : Math.round(month.adherentShare * patients);
  const adherent = add({ id: `${id}:adherent`, count: adherentCount, display: 'unlabelled', shownWith: [id] });
  const nonAdherent = add({ id: `${id}:non-adherent`, count: patients - adherentCount, display: 'never' });
  sums.push({ total: id, parts: [adherent, nonAdherent] });
  // Patients followed for a whole month are fewer each month, and never more than the group.
  const previous = monthIndex === 0 ? `${name}:${group.key}` : `${name}:${group.key}:${group.months[monthIndex - 1]!.month}`;
  orders.push({ smaller: id, larger: previous });
  derived[`${id}:quartiles`] = [id];
  derived[`${id}:share`] = [id, adherent];
  return { patients: id, adherent, nonAdherent };
}
