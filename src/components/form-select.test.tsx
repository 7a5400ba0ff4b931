import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormSelect } from './form-select';

const options = [
  ['', 'All channels'],
  ['sms', 'SMS'],
  ['whatsapp', 'WhatsApp'],
] as const;

describe('FormSelect', () => {
  it('sends the chosen value under its name, an empty one for "All …", with a labelled HeroUI select and no native select', () => {
    const chosen = renderToStaticMarkup(<FormSelect name="channel" label="Channel" defaultValue="sms" options={options} />);
    expect(chosen).toContain('<input type="hidden" name="channel" value="sms"/>');
    expect(chosen).toContain('Channel');
    expect(chosen).not.toMatch(/<select[^>]*name="channel"/);
    const all = renderToStaticMarkup(<FormSelect name="channel" label="Channel" defaultValue="" options={options} />);
    expect(all).toContain('<input type="hidden" name="channel" value=""/>');
    expect(all).toContain('All channels');
  });

  it('falls back to the first option, as a native select does, when the default is not among them', () => {
    const html = renderToStaticMarkup(<FormSelect name="channel" label="Channel" defaultValue="fax" options={options} />);
    expect(html).toContain('<input type="hidden" name="channel" value=""/>');
  });
});
