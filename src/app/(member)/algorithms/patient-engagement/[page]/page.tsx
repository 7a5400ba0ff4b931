import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageUnderConstruction } from '@/features/shell/components/page-under-construction';
import { getProductName } from '@/lib/product';
import { findPatientEngagementPage } from '@/lib/routes';

type Props = { params: Promise<{ page: string }> };

// The algorithm and survey pages of seed-spec §2 that have no page of their own yet; unknown segments are 404s.
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = findPatientEngagementPage(getProductName(), (await params).page);
  return { title: found?.label ?? 'Page not found' };
}

export default async function PatientEngagementPage({ params }: Props) {
  const found = findPatientEngagementPage(getProductName(), (await params).page);
  if (found === undefined) notFound();
  return <PageUnderConstruction planId={found.id} heading={found.label} />;
}
