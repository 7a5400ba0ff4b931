import { describe, expect, it } from 'vitest';
import type { PeriodView } from '@/lib/period-query';
import { pendingWording } from './portal-view';

const period = (start: string, end: string): PeriodView => ({
  start,
  end,
  asOf: end,
  days: 0,
  choice: { kind: 'last-months', months: 12 },
  notice: null,
});

describe('pendingWording (decision 060)', () => {
  it('names the period shown, the newer data being added, the refresh and the period the page will then show', () => {
    const wording = pendingWording(period('2025-11-11', '2026-11-10'), {
      asked: period('2025-11-19', '2026-11-18'),
      newDataFrom: '2026-11-11',
      refresh: 'queued',
    });
    expect(wording).toBe(
      "Every figure below is for 11 Nov 2025 – 10 Nov 2026, data up to 10 Nov 2026, the latest period the portal's summaries hold. " +
        'Newer data (from 11 Nov 2026 up to 18 Nov 2026) are being added: the refresh is queued, and then this page shows ' +
        '19 Nov 2025 – 18 Nov 2026, data up to 18 Nov 2026.',
    );
    expect(
      pendingWording(period('2025-11-11', '2026-11-10'), {
        asked: period('2025-11-19', '2026-11-18'),
        newDataFrom: '2026-11-11',
        refresh: 'running',
      }),
    ).toContain('the refresh is running');
  });
});
