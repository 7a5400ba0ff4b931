/** What the patient's home shows (browser-safe: the page component reads it). */
export type TodayDose = {
  productId: string;
  medication: string;
  index: number;
  of: number;
  scheduledAt: string;
  localTime: string;
  answer: { status: string; source: string; doseEventId: string; undoUntil: string | null } | null;
};

export type PatientHome =
  | { kind: 'no-record' }
  | {
      kind: 'home';
      pseudonym: string;
      synthetic: boolean;
      timeZone: string;
      today: { date: string; doses: TodayDose[] };
      nextRefill: { medication: string; dueOn: string; daysLeft: number } | null;
      month: { label: string; from: string; through: string; taken: number; skipped: number; missed: number; answered: number };
      messages: { id: string; direction: 'outbound' | 'inbound'; channel: string; sentAt: string; text: string }[];
    };
