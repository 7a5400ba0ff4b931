import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { suppressCount } from '@/engine/aggregation/small-cell-suppression';
import { type FlowEdge, flowSteps, type MessageFlowPage, type TracedDecision } from '../schemas';
import { MessageFlowView } from './message-flow-view';

const shown = (count: number) => suppressCount(count, 0);
const edges: FlowEdge[] = flowSteps.map((from, index) => ({
  id: `${from}-${flowSteps[index + 1] ?? 'posterior'}`,
  from,
  to: flowSteps[index + 1] ?? 'posterior',
  what: `passed ${index}`,
  short: `short ${index}`,
  count: shown(40 - index),
}));

const decision: TracedDecision = {
  pseudonym: 'S-0042',
  synthetic: true,
  localDate: '2026-11-20',
  decidedAt: '2026-11-20T04:00:00.000Z',
  policyVersion: '3',
  context: [{ name: 'persona', value: 'busy-professional' }],
  probabilities: [
    { action: 0, label: 'No message', probability: 0.6, chosen: false },
    { action: 1, label: 'reminder · neutral', probability: 0.4, chosen: true },
  ],
  choice: { label: 'reminder · neutral', propensity: 0.4 },
  status: 'sent',
  statusReason: null,
  message: {
    channel: 'whatsapp',
    templateId: 'reminder.neutral.1',
    templateLanguage: 'en',
    templateVersion: 1,
    body: 'Time for your medicine',
    status: 'read',
    sentAt: '2026-11-20T08:00:00.000Z',
  },
  reply: { channel: 'whatsapp', receivedAt: '2026-11-20T08:05:00.000Z', text: 'Taken', reading: 'taken' },
  reward: 1,
  rewardedAt: '2026-11-21T04:00:00.000Z',
  learnedIn: '4',
};

const page: MessageFlowPage = {
  status: 'ok',
  periodStart: '2026-10-27T12:00:00.000Z',
  periodEnd: '2026-11-24T12:00:00.000Z',
  periodDays: 28,
  scope: 'all',
  suppressed: true,
  enrolled: suppressCount(5),
  patientsDecided: shown(40),
  edges,
  latestVersion: { version: '4', createdAt: '2026-11-21T02:00:00.000Z', decisionsUsed: 120, trainedThrough: '2026-11-20T04:00:00.000Z' },
  versionsInPeriod: 3,
  trace: { status: 'traced', decision },
};

describe('MessageFlowView', () => {
  it('states period and population, lists every edge’s count beside the diagram and traces the decision', () => {
    const html = renderToStaticMarkup(<MessageFlowView flow={page} />);
    expect(html).toContain('Period: the 28 days to');
    expect(html).toContain('all patients in the personalised programme');
    // A small group is never shown as its number.
    expect(html).toContain('data-suppressed="small">&lt;11</span></span> enrolled now');
    for (const edge of edges) expect(html).toContain(`data-testid="flow-edge-${edge.id}"`);
    expect(html).toContain('passed 8');
    expect(html).toContain('version 4, stored');
    expect(html).toContain('S-0042');
    expect(html).toContain('synthetic demo data');
    expect(html).toContain('reminder · neutral (propensity 0.400)');
    expect(html).toContain('template reminder.neutral.1 (en, version 1)');
    expect(html).toContain('read as taken: “Taken”');
    expect(html).toContain('100% of the day’s scheduled doses confirmed');
    expect(html).toContain('policy version 4');
  });

  it('says plainly when there is nothing to trace, or only real patients a viewer may not see', () => {
    const none = renderToStaticMarkup(<MessageFlowView flow={{ ...page, latestVersion: null, trace: { status: 'none-yet' } }} />);
    expect(none).toContain('No live decision of the personalised policy exists yet');
    expect(none).toContain('none stored yet');
    expect(none).not.toContain('data-testid="traced-decision"');
    const hidden = renderToStaticMarkup(<MessageFlowView flow={{ ...page, trace: { status: 'not-shown' } }} />);
    expect(hidden).toContain('only of real patients');
    expect(renderToStaticMarkup(<MessageFlowView flow={{ status: 'no-company' }} />)).toContain('belongs to no drug company');
  });
});
