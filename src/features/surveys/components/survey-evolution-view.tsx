import type { ReactNode } from 'react';
import { formatCount, formatDate, formatDecimal, formatPercent, formatPeriod } from '@/lib/format';
import type { AccuracyView, SurveyEvolutionPage, SurveyVersionView } from '../server/get-survey-evolution-page';
import { accuracySentence, stopRulesSentence } from './accuracy-sentence';
import { PersonaAccuracyChart } from './persona-accuracy-chart';
import { ShownCountText, SuppressionNote } from '@/lib/components/suppressed-cell';
import { TableScroll } from '@/lib/components/table-scroll';
import { syntheticSurveyDataNote } from './synthetic-survey-data-note';

const listFormat = new Intl.ListFormat('en-GB', { style: 'long', type: 'conjunction' });
const cell = 'py-1 pr-3 text-left';
const numberCell = 'py-1 pl-3 text-right tabular-nums';

function AccuracySection({ accuracy }: { accuracy: AccuracyView }) {
  const { result } = accuracy;
  const atLimit = result.curve[Math.min(5, result.curve.length - 1)]!;
  const label = `Line chart of persona accuracy against the number of questions asked, on ${formatCount(result.patients)} simulated patients (synthetic): adaptive order ${result.curve.map((point) => formatPercent(point.adaptive)).join(', ')}; fixed order ${result.curve.map((point) => formatPercent(point.fixed)).join(', ')}, for 0 to ${result.curve.length - 1} questions; the target is ${formatPercent(result.target)}.`;
  return (
    <section aria-labelledby="accuracy-heading" className="flex flex-col gap-3">
      <h2 id="accuracy-heading" className="text-xl font-semibold">
        Persona accuracy: adaptive order against fixed order
      </h2>
      <p className="max-w-3xl text-sm text-muted">
        Synthetic: {formatCount(result.patients)} simulated patients, drawn in the cohort’s persona shares, each with a known true persona,
        answer every question of “{accuracy.title}” (version {accuracy.version}) from that persona with {formatPercent(result.noise)} random
        guessing — the same answering model as the demo data.
        {accuracy.fromRecord.length > 0
          ? ` The patient’s record answers ${listFormat.format(accuracy.fromRecord)} (each simulated patient’s record drawn as the simulator draws it), so neither order asks them and both start from what the record says; “0 questions” is the record alone.`
          : ''}{' '}
        Accuracy is the share whose most probable persona after that many answers is their true one. The adaptive order asks the question
        with the largest expected information gain next; the fixed order asks them as the survey lists them (
        {accuracy.fixedOrder.join(', ')}). Here neither stops early; patients are asked at most 5.
      </p>
      <p className="max-w-3xl font-medium">{accuracySentence(accuracy.result)}</p>
      <p className="max-w-3xl text-sm">
        At the 5-question limit patients are asked: adaptive {formatPercent(atLimit.adaptive, 1)}, fixed {formatPercent(atLimit.fixed, 1)}.{' '}
        {stopRulesSentence(result)}
      </p>
      <PersonaAccuracyChart result={result} label={label} />
      <TableScroll label="Persona accuracy by questions asked">
        <table className="w-full max-w-xl text-sm">
          <caption className="pb-1 text-left font-medium">
            Persona accuracy by questions asked (synthetic, {formatCount(result.patients)} simulated patients)
          </caption>
          <thead>
            <tr className="border-b border-separator">
              <th scope="col" className={`${cell} font-medium`}>
                Questions asked
              </th>
              <th scope="col" className={`${numberCell} font-medium`}>
                Adaptive order
              </th>
              <th scope="col" className={`${numberCell} font-medium`}>
                Fixed order
              </th>
            </tr>
          </thead>
          <tbody>
            {result.curve.map((point) => (
              <tr key={point.questions} className="border-b border-separator/50">
                <th scope="row" className={`${cell} font-normal`}>
                  {point.questions}
                </th>
                <td className={numberCell}>{formatPercent(point.adaptive, 1)}</td>
                <td className={numberCell}>{formatPercent(point.fixed, 1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

function VersionView({
  surveyKey,
  version,
  patientsInScope,
}: {
  surveyKey: string;
  version: SurveyVersionView;
  patientsInScope: ReactNode;
}) {
  const headingId = `${surveyKey}-v${version.version}-heading`;
  const informative = version.questions.filter((question) => question.informative);
  const storedOn = version.createdAt.slice(0, 10);
  // A response begins on the version current at the time, so only the demo's simulated responses can be older.
  const startedBeforeStored = version.channels.some((rate) => rate.from < storedOn);
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-md border border-separator p-4">
      <h4 id={headingId} className="font-medium">
        Version {version.version} — {formatDate(version.createdAt.slice(0, 10))}, {version.questionCount} questions, {version.order} order
      </h4>
      {version.changes.length === 0 && version.changeNote === null ? (
        <p className="text-sm text-muted">{version.version === 1 ? 'The first version, as shipped.' : 'No change to the questions.'}</p>
      ) : (
        <div className="text-sm">
          {version.changeNote === null ? null : <p>Editor’s note: {version.changeNote}</p>}
          <ul className="list-disc pl-5">
            {version.changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        </div>
      )}
      {version.channels.length === 0 ? (
        <p className="text-sm text-muted">No responses on this version yet.</p>
      ) : (
        <TableScroll label="Responses by channel">
          <table className="w-full text-sm">
            <caption className="pb-1 text-left font-medium">
              Responses by channel (started: opened in the app&apos;s form, or sent the survey by WhatsApp or SMS; response rate: patients
              who started ÷ the {patientsInScope} patients in scope; completion rate: completed ÷ started)
            </caption>
            <thead>
              <tr className="border-b border-separator">
                <th scope="col" className={`${cell} font-medium`}>
                  Channel
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  Started between
                </th>
                <th scope="col" className={`${numberCell} font-medium`}>
                  Started
                </th>
                <th scope="col" className={`${numberCell} font-medium`}>
                  Completed
                </th>
                <th scope="col" className={`${numberCell} font-medium`}>
                  Response rate
                </th>
                <th scope="col" className={`${numberCell} font-medium`}>
                  Completion rate
                </th>
              </tr>
            </thead>
            <tbody>
              {version.channels.map((rate) => (
                <tr key={rate.channel} className="border-b border-separator/50">
                  <th scope="row" className={`${cell} font-normal`}>
                    {rate.channel === 'web' ? 'Web' : rate.channel === 'whatsapp' ? 'WhatsApp' : rate.channel.toUpperCase()}
                  </th>
                  <td className={cell}>{formatPeriod(rate.from, rate.to, { short: true })}</td>
                  <td className={numberCell}>
                    <ShownCountText value={rate.started} format={formatCount} />
                  </td>
                  <td className={numberCell}>
                    <ShownCountText value={rate.completed} format={formatCount} />
                  </td>
                  <td className={numberCell}>{rate.responseRate === null ? '—' : formatPercent(rate.responseRate, 1)}</td>
                  <td className={numberCell}>{rate.completionRate === null ? '—' : formatPercent(rate.completionRate, 1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {startedBeforeStored ? (
        <p className="text-sm text-muted">
          Responses dated before {formatDate(storedOn)}, when this version was stored, are the demo&apos;s synthetic responses: they carry
          the dates of the simulated year.
        </p>
      ) : null}
      {informative.length === 0 ? (
        <p className="text-sm text-muted">
          These questions are not used to infer the persona (their answers are equally likely under every persona), so they add no persona
          information.
        </p>
      ) : version.channels.length === 0 ? (
        <p className="text-sm text-muted">No answers yet, so no question has added information on this version.</p>
      ) : (
        <TableScroll label="Information each question added">
          <table className="w-full text-sm">
            <caption className="pb-1 text-left font-medium">
              Information each question added about the persona (mean bits of uncertainty removed by its answer, where it was asked)
            </caption>
            <thead>
              <tr className="border-b border-separator">
                <th scope="col" className={`${cell} font-medium`}>
                  Question
                </th>
                <th scope="col" className={`${numberCell} font-medium`}>
                  Answered
                </th>
                <th scope="col" className={`${numberCell} font-medium`}>
                  Mean bits
                </th>
              </tr>
            </thead>
            <tbody>
              {informative.map((question) => (
                <tr key={question.id} className="border-b border-separator/50">
                  <th scope="row" className={`${cell} font-normal`}>
                    {question.text}
                  </th>
                  <td className={numberCell}>
                    <ShownCountText value={question.answered} format={formatCount} />
                  </td>
                  <td className={numberCell}>{question.meanBits === null ? '—' : formatDecimal(question.meanBits, 3)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

/** The survey-evolution page's content: accuracy first (the engine's result), then each survey's versions. */
export function SurveyEvolutionView({ page, scopeLabel }: { page: SurveyEvolutionPage; scopeLabel: string }) {
  return (
    <div className="flex flex-col gap-8">
      {page.accuracy === null ? (
        <p>No adaptive survey with persona likelihoods is defined, so there is no accuracy to compare.</p>
      ) : (
        <AccuracySection accuracy={page.accuracy} />
      )}
      <section aria-labelledby="versions-heading" className="flex flex-col gap-4">
        <h2 id="versions-heading" className="text-xl font-semibold">
          Versions, responses and the information each question adds
        </h2>
        <p className="max-w-3xl text-sm text-muted">
          Responses of <ShownCountText value={page.patientsInScope} format={formatCount} /> patients ({scopeLabel}), every response counted
          once on the version and channel it was given on, over the period shown per row.
          {page.includesSynthetic ? syntheticSurveyDataNote : ''}
        </p>
        {page.suppressed ? <SuppressionNote /> : null}
        {page.surveys.map((survey) => (
          <section key={survey.surveyKey} aria-labelledby={`${survey.surveyKey}-versions-heading`} className="flex flex-col gap-3">
            <h3 id={`${survey.surveyKey}-versions-heading`} className="text-lg font-medium">
              {survey.title} ({survey.versions.length} version{survey.versions.length === 1 ? '' : 's'})
            </h3>
            {survey.versions.map((version) => (
              <VersionView
                key={version.version}
                surveyKey={survey.surveyKey}
                version={version}
                patientsInScope={<ShownCountText value={page.patientsInScope} format={formatCount} />}
              />
            ))}
          </section>
        ))}
      </section>
    </div>
  );
}
