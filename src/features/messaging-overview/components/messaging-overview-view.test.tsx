import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MessagingOverview } from '../schemas';
import { MessagingOverviewView } from './messaging-overview-view';

type Ok = Extract<MessagingOverview, { status: 'ok' }>;

const base: Ok = {
  status: 'ok',
  period: {
    start: '2026-01-05',
    end: '2026-01-18',
    asOf: '2026-01-31',
    days: 14,
    choice: { kind: 'custom', from: 20458, to: 20471 },
    notice: null,
  },
  now: '2026-02-01T08:00:00.000Z',
  scope: 'organisation',
  suppressed: false,
  minimumGroupSize: 11,
  filters: { channel: 'sms', persona: null, productId: null },
  filterProblem: null,
  options: { personas: ['busy'], products: [] },
  selection: { messages: 1600, patients: 120, syntheticPatients: 120 },
  tooFew: false,
  daily: [{ key: '2026-01-05', group: 'sms', outbound: 800, inbound: 40 }],
  weeklyByChannel: [{ key: '2026-01-05', group: 'sms', outbound: 800, inbound: 40 }],
  weeklyByCategory: [{ key: '2026-01-05', group: 'reminder', outbound: 800, inbound: null }],
  totalsByChannel: [{ group: 'sms', outbound: 1560, inbound: 40 }],
  totalsByCategory: [{ group: 'reminder', outbound: 1560, inbound: null }],
  outcomes: [
    {
      channel: 'sms',
      outbound: 1560,
      delivered: { count: 1500, of: 1560, share: 1500 / 1560, low: 0.95, high: 0.97 },
      read: null,
      replied: null,
      failed: null,
    },
    { channel: 'all', outbound: null, delivered: null, read: null, replied: null, failed: null },
  ],
  failureReasons: [],
  optOutsByWeek: [],
  optOutsByGroup: [],
  stopReplies: [],
  programmes: [{ programme: 'fixed-daily', patients: 100, byChannel: [{ channel: 'sms', patients: 100 }] }],
  programmePatients: 120,
  nextSends: { days: [{ day: '2026-02-01', sends: 12 }], total: 12, next: '2026-02-01T09:00:00Z' },
};

const render = (page: MessagingOverview) =>
  renderToStaticMarkup(<MessagingOverviewView page={page} periodProblem={null} addressProblem={null} />);

describe('MessagingOverviewView', () => {
  it('states the period, the population and the filters, and a rate with its interval', () => {
    const html = render(base);
    expect(html).toContain(
      '1,600 messages 5 Jan 2026 to 18 Jan 2026 to 120 patients (all synthetic demo data) of your organisation’s patients, channel SMS.',
    );
    expect(html).toContain('96.2% (1,500 of 1,560; 95% CI 95.0%–97.0%)');
    expect(html).toContain('Next planned send:');
  });

  it('shows a hidden figure as "<11", explained once', () => {
    const html = render({ ...base, suppressed: true });
    expect(html).toContain('data-suppressed="small">&lt;11</span>');
    expect(html.match(/data-testid="suppression-note"/g)).toHaveLength(1);
  });

  it('shows no figure when the selection is too small', () => {
    const html = render({
      ...base,
      suppressed: true,
      tooFew: true,
      selection: { messages: null, patients: null, syntheticPatients: null },
    });
    expect(html).toContain('fewer than 11 patients, so no figures are shown');
    expect(html).not.toContain('outcomes-table');
  });
});
