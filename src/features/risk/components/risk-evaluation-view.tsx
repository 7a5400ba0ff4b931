/**
 * The neural-network-effect page's body: the stored evaluation of the latest ready risk model version —
 * ROC curves and AUC with 95% CIs, calibration and Brier scores, the network's training curve and the
 * simulated effect of targeting messages by risk — each chart with its figures in a table.
 */
import type { ModelEvaluation, TargetingScenario } from '@/engine/risk';
import { formatCount, formatDateTime, formatPercent } from '@/lib/format';
import { riskModelLabels, type RiskModelDto } from '../schemas';
import { CalibrationChart, RocChart, TargetingChart, TrainingCurveChart } from './risk-charts';
import { TableScroll } from '@/lib/components/table-scroll';

const scenarioLabels: Record<TargetingScenario, string> = {
  'no-one': 'No reminders',
  random: 'Random patients',
  'top-risk': 'Highest risk (network)',
  everyone: 'Everyone',
};

const decimal = (value: number, digits = 3) => value.toFixed(digits);

function populationSentence(model: RiskModelDto): string {
  const evaluation = model.evaluation!;
  const source =
    model.source === 'simulation'
      ? `a simulated cohort of ${formatCount(model.patients)} patients (seed ${model.seed}; synthetic, not real patients)`
      : `the stored records of ${formatCount(model.patients)} patients`;
  return (
    `Version ${model.version}, trained ${model.completedAt === null ? '' : formatDateTime(model.completedAt)} on ${source} over ${model.weeks} weeks: ` +
    `the ${evaluation.trainWeeks} earlier weeks train (${formatCount(evaluation.trainRows)} patient-weeks) and the last ${evaluation.testWeeks} weeks test ` +
    `(${formatCount(evaluation.testRows)} patient-weeks of ${formatCount(evaluation.testPatients)} patients, ${formatPercent(evaluation.testPrevalence, 1)} of them below 0.8 adherence).`
  );
}

function verdict(models: ModelEvaluation[], beats: boolean): string {
  const network = models.find((model) => model.name === 'network')!;
  const logistic = models.find((model) => model.name === 'logistic')!;
  if (beats) {
    return `The neural network beats logistic regression on the test weeks: its AUC ${decimal(network.auc)} (95% CI ${decimal(network.aucLow)} to ${decimal(network.aucHigh)}) lies above logistic regression’s ${decimal(logistic.auc)}.`;
  }
  return `The neural network does not beat logistic regression on the test weeks: its AUC is ${decimal(network.auc)} (95% CI ${decimal(network.aucLow)} to ${decimal(network.aucHigh)}) against ${decimal(logistic.auc)} for logistic regression, so the simpler model is as good here.`;
}

export function RiskEvaluationView({ model }: { model: RiskModelDto }) {
  const evaluation = model.evaluation;
  if (evaluation === null) {
    return <p>This version’s evaluation is hidden: it covers fewer than 11 patients.</p>;
  }
  const rocCurves = evaluation.models.map((entry) => ({ name: riskModelLabels[entry.name] ?? entry.name, points: entry.roc }));
  const calibrationCurves = evaluation.models.map((entry) => ({
    name: riskModelLabels[entry.name] ?? entry.name,
    points: entry.calibration,
  }));
  const targeting = model.targeting;
  const targetingBars = targeting?.results.map((result) => ({ label: scenarioLabels[result.scenario], result })) ?? [];
  return (
    <div className="flex flex-col gap-8">
      <p className="max-w-3xl text-muted" data-testid="risk-population">
        {populationSentence(model)}
      </p>
      <p className="max-w-3xl font-medium" data-testid="risk-verdict">
        {verdict(evaluation.models, evaluation.networkBeatsLogistic)}
      </p>

      <section aria-labelledby="risk-discrimination" className="flex flex-col gap-3">
        <h2 id="risk-discrimination" className="text-xl font-semibold">
          Discrimination: ROC curves and AUC
        </h2>
        <RocChart curves={rocCurves} label="ROC curves of the three models on the test weeks; the figures are in the table below." />
        <TableScroll label="Models compared">
          <table className="min-w-full text-sm" data-testid="risk-models">
            <caption className="text-left text-muted">
              Test weeks only. AUC with DeLong’s 95% confidence interval (patient-weeks treated as independent, so somewhat narrow); Brier
              score: mean squared error of the predicted risk (lower is better; the rule’s score is 1 − its 30-day rate).
            </caption>
            <thead>
              <tr className="border-b border-separator text-left">
                <th scope="col" className="py-2 pr-4">
                  Model
                </th>
                <th scope="col" className="py-2 pr-4">
                  AUC
                </th>
                <th scope="col" className="py-2 pr-4">
                  95% CI
                </th>
                <th scope="col" className="py-2 pr-4">
                  Brier score
                </th>
              </tr>
            </thead>
            <tbody>
              {evaluation.models.map((entry) => (
                <tr key={entry.name} className="border-b border-separator">
                  <th scope="row" className="py-2 pr-4 text-left font-medium">
                    {riskModelLabels[entry.name] ?? entry.name}
                  </th>
                  <td className="py-2 pr-4">{decimal(entry.auc)}</td>
                  <td className="py-2 pr-4">
                    {decimal(entry.aucLow)} to {decimal(entry.aucHigh)}
                  </td>
                  <td className="py-2 pr-4">{decimal(entry.brier, 4)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>

      <section aria-labelledby="risk-calibration" className="flex flex-col gap-3">
        <h2 id="risk-calibration" className="text-xl font-semibold">
          Calibration
        </h2>
        <CalibrationChart
          curves={calibrationCurves}
          label="Calibration of the three models on the test weeks: predicted risk against the observed share below 0.8, in tenths of predicted risk."
        />
        <p className="max-w-3xl text-sm text-muted">
          Each point is a tenth of predicted risk: its mean prediction against the share of those patient-weeks that were below 0.8. Points
          on the dashed line are perfectly calibrated. Brier scores are in the table above.
        </p>
      </section>

      <section aria-labelledby="risk-training" className="flex flex-col gap-3">
        <h2 id="risk-training" className="text-xl font-semibold">
          Training curve of the network
        </h2>
        <TrainingCurveChart
          curve={evaluation.trainingCurve}
          label="Log loss of the network after each epoch on the training and the test weeks."
        />
        <p className="max-w-3xl text-sm text-muted">
          Log loss after each of {evaluation.trainingCurve.length} epochs (fixed in advance; the test weeks’ loss is shown, never used to
          choose anything). Final: training {decimal(evaluation.trainingCurve.at(-1)?.trainingLoss ?? Number.NaN, 4)}, test{' '}
          {decimal(evaluation.trainingCurve.at(-1)?.heldOutLoss ?? Number.NaN, 4)}.
        </p>
      </section>

      <section aria-labelledby="risk-targeting" className="flex flex-col gap-3">
        <h2 id="risk-targeting" className="text-xl font-semibold">
          Targeting messages by risk (simulated)
        </h2>
        {targeting === null ? (
          <p>This version was trained without the targeting simulation.</p>
        ) : (
          <>
            <p className="max-w-3xl text-muted">
              Simulated, not observed: {formatCount(targeting.patients)} synthetic patients (seed {targeting.seed}) live{' '}
              {targeting.historyWeeks} weeks under a weekly check-in, are scored by the network, and then for {targeting.followUpWeeks}{' '}
              weeks a daily reminder goes to no one, to a random {formatPercent(targeting.share)}, to the {formatPercent(targeting.share)}{' '}
              with the highest risk (the same message budget), or to everyone. Outcome: the share of doses taken among doses due with
              medicine at hand, over those weeks.
            </p>
            <TargetingChart
              results={targetingBars}
              label="Simulated share of doses taken over the follow-up weeks by who received reminders; figures in the table below."
            />
            <TableScroll label="Targeting scenarios">
              <table className="min-w-full text-sm" data-testid="risk-targeting">
                <caption className="text-left text-muted">Simulated follow-up weeks; one run of the simulator (no interval).</caption>
                <thead>
                  <tr className="border-b border-separator text-left">
                    <th scope="col" className="py-2 pr-4">
                      Who is reminded
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Patients messaged
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Messages sent
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Doses taken
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {targetingBars.map(({ label, result }) => (
                    <tr key={result.scenario} className="border-b border-separator">
                      <th scope="row" className="py-2 pr-4 text-left font-medium">
                        {label}
                      </th>
                      <td className="py-2 pr-4">{formatCount(result.patientsMessaged)}</td>
                      <td className="py-2 pr-4">{formatCount(result.messages)}</td>
                      <td className="py-2 pr-4">{formatPercent(result.adherence, 1)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </>
        )}
      </section>
    </div>
  );
}
