import { recordDoseAnswerAction, undoDoseAnswerAction } from '@/app/_actions/dose-answer-actions';
import { getDatabase } from '@/db/client';
import { HomePage } from '@/features/home/components/home-page';
import { AdminHomePage, ClinicianHomePage, GovernmentHomePage, ManufacturerHomePage } from '@/features/home/components/role-home-page';
import { getAdminHome } from '@/features/home/server/get-admin-home';
import { getCareTeamHome } from '@/features/home/server/get-care-team-home';
import { getHeadlineFigures } from '@/features/home/server/get-headline-figures';
import { getPatientHome, PatientHomePage } from '@/features/patient-home';
import { parsePeriodQuery } from '@/lib/period-query';
import { getProductName } from '@/lib/product';
import { getCurrentUser } from '@/lib/server/current-user';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function Home({ searchParams }: Props) {
  const actor = await getCurrentUser();
  const database = getDatabase();
  // Each signed-in role lands on its own home (decision 048); visitors on the product's page.
  if (actor?.role === 'patient') {
    const home = await getPatientHome({ database, actor, now: new Date() });
    return <PatientHomePage home={home} answer={recordDoseAnswerAction} undo={undoDoseAnswerAction} />;
  }
  // The period in the address (the default when missing or malformed, with the fields at fault named).
  const { choice, problem } = parsePeriodQuery(await searchParams);
  if (actor?.role === 'admin') {
    const [pending, figures] = await Promise.all([getAdminHome({ database, actor }), getHeadlineFigures({ database, actor, choice })]);
    return <AdminHomePage name={actor.name} pending={pending} figures={figures} periodProblem={problem} />;
  }
  if (actor?.role === 'clinician') {
    const [careTeam, figures] = await Promise.all([
      getCareTeamHome({ database, actor, choice }),
      getHeadlineFigures({ database, actor, choice }),
    ]);
    return <ClinicianHomePage name={actor.name} figures={figures} careTeam={careTeam} periodProblem={problem} />;
  }
  const figures = await getHeadlineFigures({ database, actor, choice });
  if (actor?.role === 'drug-manufacturer') return <ManufacturerHomePage name={actor.name} figures={figures} periodProblem={problem} />;
  if (actor?.role === 'government-official') return <GovernmentHomePage name={actor.name} figures={figures} periodProblem={problem} />;
  return <HomePage productName={getProductName()} figures={figures} periodProblem={problem} />;
}
