import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { messagingProgrammeLabels } from '@/lib/domain/messaging-programmes';
import { MessagingProgrammeForm } from './messaging-programme-form';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh: () => undefined }) }));

const patientId = '00000000-0000-4000-8000-000000000001';

describe('MessagingProgrammeForm', () => {
  it('shows the programme read-only, with no form, when the viewer may not change it', () => {
    const html = renderToStaticMarkup(<MessagingProgrammeForm patientId={patientId} programme="personalised" />);
    expect(html).toContain(messagingProgrammeLabels.personalised);
    expect(html).not.toContain('<select');
    expect(html).not.toContain('Save programme');
  });

  it('offers every programme and "not enrolled" in a labelled select, the current one chosen, with Save', () => {
    const save = vi.fn();
    const html = renderToStaticMarkup(<MessagingProgrammeForm patientId={patientId} programme="fixed-weekly" save={save} />);
    // A HeroUI select: its label, the current choice on its button, and the options in its hidden native select.
    expect(html).toMatch(/data-slot="label"[^>]*>Programme</);
    expect(html).toMatch(/data-slot="select-value"[^>]*>Fixed weekly check-in</);
    for (const label of Object.values(messagingProgrammeLabels)) expect(html).toContain(`>${label}</option>`);
    expect(html).toContain('Not enrolled (no live messages)');
    expect(html).toMatch(/<option value="fixed-weekly" selected="">/);
    expect(html).toContain('Save programme');
    expect(html).toContain('role="status"');
    expect(save).not.toHaveBeenCalled();
  });
});
