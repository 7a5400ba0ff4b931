'use client';

import { type ReactNode, useState } from 'react';
import { ContactModal } from '@/features/contact/components/contact-modal';
import { TopBar } from '@/features/shell/components/top-bar';

/** The application shell (seed-spec §2) composing the top bar and the contact modal around every page. */
export function ApplicationShell({ productName, children }: { productName: string; children: ReactNode }) {
  const [contactOpen, setContactOpen] = useState(false);
  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50">
        Skip to content
      </a>
      <TopBar productName={productName} onContactPress={() => setContactOpen(true)} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        {children}
      </main>
      <footer className="border-t border-separator px-4 py-6 text-center text-sm text-muted">
        {productName} · medication-adherence monitoring and patient engagement
      </footer>
      <ContactModal productName={productName} isOpen={contactOpen} onOpenChange={setContactOpen} />
    </>
  );
}
