import { getDatabase } from '@/db/client';
import { HomePage } from '@/features/home/components/home-page';
import { getHeadlineFigures } from '@/features/home/server/get-headline-figures';
import { getProductName } from '@/lib/product';

export default async function Home() {
  return <HomePage productName={getProductName()} figures={await getHeadlineFigures({ database: getDatabase() })} />;
}
