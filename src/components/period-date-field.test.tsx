import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PeriodDateField } from './period-date-field';

/** The inputs in the markup that a GET form would send (a `form=""` input is left out of the submission). */
const submitted = (html: string) => [...html.matchAll(/<input(?![^>]*form="")[^>]*name="([^"]+)"[^>]*>/g)].map((match) => match[0]);

describe('PeriodDateField', () => {
  it('sends the day as an ISO date under its name, from a labelled HeroUI field with no native date input shown', () => {
    const html = renderToStaticMarkup(<PeriodDateField name="from" label="From" defaultValue="2025-03-01" max="2025-12-31" />);
    const sent = submitted(html);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/value="2025-03-01"/);
    expect(html).toContain('From');
    // Day before month (British order): the segments read 01/03/2025.
    expect([...html.matchAll(/role="spinbutton"[^>]*data-type="(\w+)">(\d+)</g)].map((match) => `${match[1]} ${match[2]}`)).toEqual([
      'day 01',
      'month 03',
      'year 2025',
    ]);
    expect(html).toContain('data-slot="date-field"');
  });

  it('sends an empty value when there is no day, or the default is not a real one', () => {
    for (const defaultValue of [undefined, '2025-02-30', 'soon']) {
      const sent = submitted(renderToStaticMarkup(<PeriodDateField name="to" label="To" defaultValue={defaultValue} />));
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/value=""/);
    }
  });
});
