import { pagePlans } from '../page-plans';

/** A page whose engine has not landed yet says so plainly (DEVELOPERS.md "Honest results only"). */
export function PageUnderConstruction({ planId, heading }: { planId: string; heading: string }) {
  const plan = pagePlans[planId];
  return (
    <article className="flex flex-col gap-4">
      <h1 className="text-3xl font-semibold tracking-tight">{heading}</h1>
      <section
        aria-labelledby="construction-notice"
        className="rounded-2xl border border-dashed border-separator bg-surface p-6"
        data-testid="under-construction"
      >
        <h2 id="construction-notice" className="text-lg font-medium">
          This page is being built
        </h2>
        {plan ? <p className="mt-2 text-muted">When it is ready it will show: {plan}</p> : null}
        <p className="mt-2 text-muted">Until then it shows no figures: nothing here is computed yet.</p>
      </section>
    </article>
  );
}
