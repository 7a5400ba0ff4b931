import type { Metadata } from 'next';
import { PageUnderConstruction } from '@/features/shell/components/page-under-construction';

export const metadata: Metadata = { title: '12-Week Trial' };

export default function TrialCohortAPage() {
  return <PageUnderConstruction planId="trial" heading="12-Week Trial" />;
}
