import { getDatabase } from '@/db/client';
import { HomePage } from '@/features/home/components/home-page';
import { getHeadlineFigures } from '@/features/home/server/get-headline-figures';
import { parsePeriodQuery } from '@/lib/period-query';
import { getProductName } from '@/lib/product';
import { getCurrentUser } from '@/lib/server/current-user';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function Home({ searchParams }: Props) {
  // The period in the address (the default when missing or malformed, with the fields at fault named).
  const { choice, problem } = parsePeriodQuery(await searchParams);
  const figures = await getHeadlineFigures({ database: getDatabase(), actor: await getCurrentUser(), choice });
  return <HomePage productName={getProductName()} figures={figures} periodProblem={problem} />;
}
