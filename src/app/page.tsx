import { HomePage } from '@/features/home/components/home-page';
import { getProductName } from '@/lib/product';

export default function Home() {
  return <HomePage productName={getProductName()} />;
}
