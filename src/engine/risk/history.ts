/**
 * What the risk model reads about one patient: daily counts over a run of days plus the dispensings, in a
 * compact form built once from stored records or from the simulator's, so training, evaluation and nightly
 * scoring all feed the same feature function (features.ts) from the same shape.
 */
import type { Condition } from '@/engine/simulation/conditions';
import type { AgeBand, Persona } from '@/engine/simulation/personas';
import type { SimulationSink } from '@/engine/simulation/records';

export type RiskPatient = {
  id: string;
  /** null when the source does not record one (imported patients). */
  persona: Persona | null;
  ageBand: AgeBand | null;
  conditions: readonly Condition[];
  productCount: number;
};

export type RiskDispensing = { productId: string; day: number; daysSupply: number };

export type PatientHistory = {
  patient: RiskPatient;
  /** Day number of index 0 of the daily arrays. */
  startDay: number;
  dayCount: number;
  /** Per day index: doses scheduled, confirmed taken, outbound messages, replies, opt-outs. */
  scheduled: Uint16Array;
  confirmed: Uint16Array;
  outbound: Uint16Array;
  replies: Uint16Array;
  optOuts: Uint8Array;
  /** Sorted by day. */
  dispensings: RiskDispensing[];
};

export function emptyHistory(patient: RiskPatient, startDay: number, dayCount: number): PatientHistory {
  return {
    patient,
    startDay,
    dayCount,
    scheduled: new Uint16Array(dayCount),
    confirmed: new Uint16Array(dayCount),
    outbound: new Uint16Array(dayCount),
    replies: new Uint16Array(dayCount),
    optOuts: new Uint8Array(dayCount),
    dispensings: [],
  };
}

export type HistoryRecorder = {
  addDose(patientId: string, day: number, confirmed: boolean): void;
  addOutbound(patientId: string, day: number): void;
  addReply(patientId: string, day: number, optOut: boolean): void;
  /** An opt-out recorded elsewhere than in a reply (the consent ledger). */
  addOptOut(patientId: string, day: number): void;
  addDispensing(patientId: string, dispensing: RiskDispensing): void;
};

/** Builds histories over [startDay, startDay + dayCount); records outside that window or for unknown patients are ignored. */
export function createHistoryCollector(startDay: number, dayCount: number) {
  const byId = new Map<string, PatientHistory>();
  const order: PatientHistory[] = [];
  const at = (patientId: string, day: number): [PatientHistory, number] | null => {
    const history = byId.get(patientId);
    const index = day - startDay;
    if (history === undefined || index < 0 || index >= dayCount) return null;
    return [history, index];
  };
  const recorder: HistoryRecorder = {
    addDose(patientId, day, confirmed) {
      const found = at(patientId, day);
      if (found === null) return;
      found[0].scheduled[found[1]]! += 1;
      if (confirmed) found[0].confirmed[found[1]]! += 1;
    },
    addOutbound(patientId, day) {
      const found = at(patientId, day);
      if (found !== null) found[0].outbound[found[1]]! += 1;
    },
    addReply(patientId, day, optOut) {
      const found = at(patientId, day);
      if (found === null) return;
      found[0].replies[found[1]]! += 1;
      if (optOut) found[0].optOuts[found[1]] = 1;
    },
    addOptOut(patientId, day) {
      const found = at(patientId, day);
      if (found !== null) found[0].optOuts[found[1]] = 1;
    },
    addDispensing(patientId, dispensing) {
      // Dispensings before the window still carry supply into it, so they are kept.
      const history = byId.get(patientId);
      if (history !== undefined && dispensing.day < startDay + dayCount) history.dispensings.push(dispensing);
    },
  };
  return {
    recorder,
    addPatient(patient: RiskPatient): void {
      if (byId.has(patient.id)) return;
      const history = emptyHistory(patient, startDay, dayCount);
      byId.set(patient.id, history);
      order.push(history);
    },
    histories(): PatientHistory[] {
      for (const history of order) history.dispensings.sort((a, b) => a.day - b.day);
      return order;
    },
  };
}

/** A simulator sink that fills a collector: the simulated cohort's records, as the product would store them. */
export function simulationSinkFor(collector: ReturnType<typeof createHistoryCollector>): SimulationSink {
  return {
    patient: (patient) =>
      collector.addPatient({
        id: patient.id,
        persona: patient.persona,
        ageBand: patient.ageBand,
        conditions: patient.conditions,
        productCount: patient.productIds.length,
      }),
    dispensing: (dispensing) =>
      collector.recorder.addDispensing(dispensing.patientId, {
        productId: dispensing.productId,
        day: dispensing.day,
        daysSupply: dispensing.daysSupply,
      }),
    doseEvent: (dose) => collector.recorder.addDose(dose.patientId, dose.scheduledDay, dose.status === 'taken'),
    message: (message) => {
      if (message.direction === 'outbound') collector.recorder.addOutbound(message.patientId, message.day);
      else collector.recorder.addReply(message.patientId, message.day, message.replyIntent === 'stop');
    },
  };
}
