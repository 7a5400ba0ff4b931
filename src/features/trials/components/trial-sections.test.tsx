import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ConsortCounts, TrialProtocol, TrialResults } from '../contracts';
import { ConsortDiagram } from './consort-diagram';
import { TrialProtocolSection } from './trial-protocol-section';
import { TrialResultsSection } from './trial-results-section';
import { YourParticipation } from './your-participation';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/\s+/g, ' ');
const arms = {
  control: { label: 'Control: standard programme', description: 'Usual care.' },
  intervention: { label: 'Intervention: personalised messages', description: 'The learning policy chooses each message.' },
};
const armLabels = { control: arms.control.label, intervention: arms.intervention.label };

const protocol: TrialProtocol = {
  id: 'trial-x',
  name: 'Trial X',
  synthetic: false,
  status: 'recruiting',
  objective: 'Does it raise adherence?',
  population: 'Adults on long-term medication.',
  eligibility: [
    { id: 'on-treatment', text: 'On treatment', checkedBy: 'system' },
    { id: 'adult', text: 'Aged 18 or over', checkedBy: 'clinician' },
  ],
  arms,
  interventionProgramme: 'personalised',
  weeks: 12,
  startDate: '2026-01-01',
  primaryEndpoint: 'Dose-level adherence over weeks 1–12.',
  secondaryEndpoints: ['Reply rate'],
  allocation: { ratio: '1:1', method: 'permuted blocks of concealed size', stratifiedBy: 'persona' },
  analysisPlan: { text: 'Welch and ANCOVA.', sha256: 'ab'.repeat(32), frozen: true },
  targetEnrolment: 40,
  recruitmentClosedOn: null,
  followUpEndsOn: '2026-06-01',
};

const armCounts = (allocated: number, withdrawn: number) => ({
  allocated,
  received: allocated - 1,
  notReceived: 1,
  lostToFollowUp: 2,
  discontinued: 3,
  withdrawn,
  analysed: allocated,
  excludedFromAnalysis: 0,
});
const consort: ConsortCounts = {
  assessed: 412,
  excluded: { total: 12, notEligible: 7, declined: 4, other: 1 },
  randomised: 400,
  arms: { intervention: armCounts(201, 5), control: armCounts(199, 6) },
};

describe('the trial page sections', () => {
  it('draws every CONSORT count as text, in flow order, per arm', () => {
    const shown = text(renderToStaticMarkup(<ConsortDiagram consort={consort} armLabels={armLabels} asOf="2026-11-24T10:00:00.000Z" />));
    expect(shown).toContain('Assessed for eligibility (n = 412)');
    expect(shown).toContain('Excluded (n = 12)');
    expect(shown).toContain('Not meeting the eligibility criteria (n = 7)');
    expect(shown).toContain('Declined to participate (n = 4)');
    expect(shown).toContain('Randomised (n = 400)');
    expect(shown).toContain('Allocated to intervention: personalised messages (n = 201)');
    expect(shown).toContain('Allocated to control: standard programme (n = 199)');
    expect(shown).toContain('Withdrew (n = 5)');
    expect(shown).toContain('Withdrew (n = 6)');
    expect(shown.indexOf('Assessed')).toBeLessThan(shown.indexOf('Randomised'));
    expect(shown.indexOf('Randomised')).toBeLessThan(shown.indexOf('analysed (n = 201)'));
  });

  it('shows the frozen plan with its hash, or the editor in its place', () => {
    const frozen = text(renderToStaticMarkup(<TrialProtocolSection protocol={protocol} />));
    expect(frozen).toContain('Frozen since enrolment started');
    expect(frozen).toContain(`SHA-256: ${'ab'.repeat(32)}`);
    expect(frozen).toContain('Intervention: personalised messages : The learning policy chooses each message.');
    expect(frozen).toContain('1:1; permuted blocks of concealed size; stratified by persona.');
    expect(frozen).toContain('Aged 18 or over (confirmed by the enrolling clinician)');
    const editing = text(renderToStaticMarkup(<TrialProtocolSection protocol={protocol} planEditor={<p>the editor</p>} />));
    expect(editing).toContain('the editor');
    expect(editing).not.toContain('Frozen since');
  });

  it('shows only accrual and pooled figures while blinded, and no arm comparison', () => {
    const results: TrialResults = {
      state: 'blinded',
      accrual: [
        { weekStarting: '2026-01-05', cumulative: 3 },
        { weekStarting: '2026-01-12', cumulative: 8 },
      ],
      pooled: { participants: 8, meanAdherence: 0.7123, period: { from: '2026-01-05', to: '2026-01-20' } },
    };
    const shown = text(renderToStaticMarkup(<TrialResultsSection results={results} armLabels={armLabels} />));
    expect(shown).toContain('Arm comparisons appear when the trial is complete.');
    expect(shown).toContain('8 participants');
    expect(shown).toContain('0.712');
    expect(shown).not.toContain('Difference in means');
    expect(shown).not.toContain('Download CSV');
  });

  it('shows the arm comparison with CIs and p-values once unblinded, and the CSV link when allowed', () => {
    const results: TrialResults = {
      state: 'unblinded',
      period: { from: '2026-01-05', to: '2026-06-01' },
      population: 'Intention to treat: all 400 randomised',
      analysis: {
        n: { control: 199, intervention: 201 },
        meanDifference: { estimate: 0.0612, ciLow: 0.0301, ciHigh: 0.0923, p: 0.00012, df: 397.6 },
        ancova: { estimate: 0.0588, ciLow: 0.0311, ciHigh: 0.0865, p: 0.0402 },
        riskDifference: { estimate: 0.12, ciLow: 0.03, ciHigh: 0.21 },
        riskRatio: { estimate: 1.3, ciLow: 1.05, ciHigh: 1.61 },
        oddsRatio: null,
        fisherP: 0.012,
        chiSquareP: 0.0099,
      },
      baseline: [{ label: 'Baseline adherence, mean (SD)', values: { control: '0.70 (0.10)', intervention: '0.71 (0.11)' } }],
      weekly: [
        { week: 1, arm: 'control', participants: 199, mean: 0.7, ciLow: 0.68, ciHigh: 0.72 },
        { week: 1, arm: 'intervention', participants: 201, mean: 0.75, ciLow: 0.73, ciHigh: 0.77 },
      ],
      secondary: [
        { name: 'Reply rate', values: { control: '0.2', intervention: '0.3' }, difference: '0.1', definition: 'inbound ÷ outbound' },
      ],
    };
    const shown = text(
      renderToStaticMarkup(<TrialResultsSection results={results} armLabels={armLabels} datasetHref="/api/trials/x/analysis-dataset" />),
    );
    expect(shown).toContain('Difference in means (Welch) 0.061 (95% CI 0.030 to 0.092), p < 0.001');
    expect(shown).toContain('0.059 (95% CI 0.031 to 0.087), p = 0.040');
    expect(shown).toContain('12.0% (95% CI 3.0% to 21.0%)');
    expect(shown).toContain('1.30 (95% CI 1.05 to 1.61)');
    expect(shown).toContain('Odds ratio (Woolf log CI) not defined');
    expect(shown).toContain('Intention to treat: all 400 randomised');
    expect(shown).toContain('0.750 (0.730 to 0.770), 201');
    expect(shown).toContain('Download CSV');
  });

  it('tells a patient their own arm and dates, or that they are not taking part', () => {
    const enrolled = text(
      renderToStaticMarkup(
        <YourParticipation
          participation={{
            enrolled: true,
            arm: 'intervention',
            enrolledOn: '2026-02-03',
            followUpEndsOn: '2026-04-27',
            status: 'in-follow-up',
          }}
          arms={arms}
        />,
      ),
    );
    expect(enrolled).toContain('Intervention: personalised messages');
    expect(enrolled).toContain('3 February 2026');
    expect(enrolled).toContain('In follow-up');
    expect(text(renderToStaticMarkup(<YourParticipation participation={{ enrolled: false }} arms={arms} />))).toContain(
      'You are not taking part in this trial.',
    );
  });
});
