import { recordDoseAnswerAction, undoDoseAnswerAction } from '@/app/_actions/dose-answer-actions';
import { getDatabase } from '@/db/client';
import { HomePage } from '@/features/home/components/home-page';
import { getHeadlineFigures } from '@/features/home/server/get-headline-figures';
import { getPatientHome, PatientHomePage } from '@/features/patient-home';
import { parsePeriodQuery } from '@/lib/period-query';
import { getProductName } from '@/lib/product';
import { getCurrentUser } from '@/lib/server/current-user';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function Home({ searchParams }: Props) {
  const actor = await getCurrentUser();
  // A signed-in patient lands on their own day; visitors and the other roles on the product's page.
  if (actor?.role === 'patient') {
    const home = await getPatientHome({ database: getDatabase(), actor, now: new Date() });
    return <PatientHomePage home={home} answer={recordDoseAnswerAction} undo={undoDoseAnswerAction} />;
  }
  // The period in the address (the default when missing or malformed, with the fields at fault named).
  const { choice, problem } = parsePeriodQuery(await searchParams);
  const figures = await getHeadlineFigures({ database: getDatabase(), actor, choice });
  return <HomePage productName={getProductName()} figures={figures} periodProblem={problem} />;
}
