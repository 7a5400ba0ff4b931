import type { PatientSurveyResult } from '../server/get-lifestyle-surveys-page';
import { surveyTitles } from './labels';
import { formatDate } from '@/lib/format';
import { TableScroll } from '@/lib/components/table-scroll';

/** Care teams' view: their patients' latest completed results, newest first, by pseudonym. */
export function PatientResultsTable({ results, limit }: { results: PatientSurveyResult[]; limit: number }) {
  return (
    <section aria-labelledby="patient-results-heading" className="flex flex-col gap-2">
      <h2 id="patient-results-heading" className="text-xl font-semibold">
        Your patients’ results
      </h2>
      <p className="text-sm text-muted">
        Completed responses of the patients you may see, newest first (
        {results.length === limit ? `the latest ${limit}` : `${results.length} in all`}). Patients are shown by pseudonym; “synthetic” marks
        simulated demo patients.
      </p>
      {results.length === 0 ? (
        <p>None of your patients has completed a survey yet.</p>
      ) : (
        <TableScroll label="Your patients’ survey results">
          <table className="w-full text-sm">
            <caption className="sr-only">Your patients’ survey results</caption>
            <thead>
              <tr className="border-b border-separator text-left">
                <th scope="col" className="py-1 pr-2 font-medium">
                  Patient
                </th>
                <th scope="col" className="py-1 pr-2 font-medium">
                  Survey (version)
                </th>
                <th scope="col" className="py-1 pr-2 font-medium">
                  Completed
                </th>
                <th scope="col" className="py-1 font-medium">
                  Results
                </th>
              </tr>
            </thead>
            <tbody>
              {results.map((row) => (
                <tr key={`${row.pseudonym}-${row.surveyKey}-${row.completedAt}`} className="border-b border-separator/50 align-top">
                  <th scope="row" className="py-1 pr-2 text-left font-normal">
                    {row.pseudonym}
                    {row.synthetic ? ' (synthetic)' : ''}
                  </th>
                  <td className="py-1 pr-2">
                    {surveyTitles[row.surveyKey] ?? row.surveyKey} (v{row.version})
                  </td>
                  <td className="py-1 pr-2 whitespace-nowrap">{formatDate(row.completedAt.slice(0, 10))}</td>
                  <td className="py-1">
                    <ul className="flex flex-col gap-1">
                      {row.results.map((result) => (
                        <li key={result.measure}>
                          <span className="text-muted">{result.label}</span> <strong className="font-medium">{result.value}</strong>
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
