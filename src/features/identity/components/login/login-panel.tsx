'use client';

import { Tabs } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { safeNextPath } from '@/lib/safe-next-path';
import { describeSignInError } from '../../sign-in-errors';
import { EmailSignInForm } from './email-sign-in-form';
import { FormMessage } from './form-message';
import { OidcSignIn } from './oidc-sign-in';
import { PhoneSignInForm } from './phone-sign-in-form';
import { TwoFactorChallenge } from './two-factor-challenge';

/** /login: every sign-in flow of seed-spec §1 — e-mail and password, phone and SMS code, OpenID Connect. */
export function LoginPanel({
  next,
  oidcProviderName,
  errorCode,
}: {
  next: string;
  oidcProviderName: string | null;
  errorCode: string | null;
}) {
  const router = useRouter();
  const [step, setStep] = useState<'choose' | 'two-factor'>('choose');
  const signedIn = () => {
    // Normalised again here: the client is the one that follows it.
    router.replace(safeNextPath(next));
    router.refresh();
  };

  if (step === 'two-factor') {
    return <TwoFactorChallenge onSignedIn={signedIn} onCancel={() => setStep('choose')} />;
  }

  return (
    <div className="flex flex-col gap-6">
      {errorCode ? <FormMessage error={describeSignInError(errorCode)} /> : null}
      <Tabs aria-label="How do you want to sign in?">
        <Tabs.ListContainer>
          <Tabs.List aria-label="Sign-in method">
            <Tabs.Tab id="email">
              E-mail
              <Tabs.Indicator />
            </Tabs.Tab>
            <Tabs.Tab id="phone">
              Phone
              <Tabs.Indicator />
            </Tabs.Tab>
          </Tabs.List>
        </Tabs.ListContainer>
        <Tabs.Panel id="email" className="pt-4">
          <EmailSignInForm onSignedIn={signedIn} onTwoFactorRequired={() => setStep('two-factor')} />
        </Tabs.Panel>
        <Tabs.Panel id="phone" className="pt-4">
          <PhoneSignInForm onSignedIn={signedIn} />
        </Tabs.Panel>
      </Tabs>
      {oidcProviderName !== null ? (
        <section aria-label="Single sign-on" className="border-t border-separator pt-6">
          <OidcSignIn providerName={oidcProviderName} next={next} onSignedIn={signedIn} />
        </section>
      ) : null}
    </div>
  );
}
