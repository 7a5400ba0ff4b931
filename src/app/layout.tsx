import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { getProductName } from '@/lib/product';
import { updateRoleAction, updateSelectedDrugCompaniesAction } from './_actions/profile-actions';
import { ApplicationShell } from './_components/application-shell';
import './globals.css';

/** React Aria's own id and rule (react-aria usePress), which it leaves alone when the element already exists. */
const pressableStyleId = 'react-aria-pressable-style';
const pressableStyle = '@layer {[data-react-aria-pressable] {touch-action: pan-x pan-y pinch-zoom;}}';

export async function generateMetadata(): Promise<Metadata> {
  const productName = getProductName();
  return {
    title: { default: `${productName} — medication adherence, measured and improved`, template: '%s' },
    description: `${productName} monitors whether patients take their medicines and reaches them with personalised messages that learn what helps.`,
  };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request: PRODUCT_NAME and (later) the session are read at run time, not baked in at build.
  await connection();
  return (
    <html lang="en">
      <head>
        {/* React Aria adds this rule as a <style> the first time a pressable control mounts, and a stylesheet
            added after the page has drawn makes the browser restyle every element (about a second of a phone's
            CPU on the longer pages; decision 054). Sent with the page, it is found and not added again. */}
        <style id={pressableStyleId}>{pressableStyle}</style>
      </head>
      <body className="flex min-h-dvh flex-col bg-background text-foreground antialiased">
        <ApplicationShell
          productName={getProductName()}
          profileActions={{ updateRole: updateRoleAction, updateSelectedDrugCompanies: updateSelectedDrugCompaniesAction }}
        >
          {children}
        </ApplicationShell>
      </body>
    </html>
  );
}
