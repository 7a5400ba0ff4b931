import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageUnderConstruction } from '@/features/shell/components/page-under-construction';
import { getProductName } from '@/lib/product';
import { findPatientEngagementPage } from '@/lib/routes';
import { ProductComparisonPage } from './product-comparison-page';

type Props = { params: Promise<{ page: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// The algorithm pages of seed-spec §2 without a folder of their own: the product comparison (its path follows
// PRODUCT_NAME, so it cannot be a static folder) and the pages not built yet; unknown segments are 404s.
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = findPatientEngagementPage(getProductName(), (await params).page);
  return { title: found?.label ?? 'Page not found' };
}

export default async function PatientEngagementPage({ params, searchParams }: Props) {
  const found = findPatientEngagementPage(getProductName(), (await params).page);
  if (found === undefined) notFound();
  if (found.id === 'product-comparison') return <ProductComparisonPage searchParams={searchParams} />;
  return <PageUnderConstruction planId={found.id} heading={found.label} />;
}
