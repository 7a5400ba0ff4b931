import { describe, expect, it } from 'vitest';
import { GET } from './route';

describe('GET /favicon.ico', () => {
  it('sends the browser to the application icon instead of a 404', () => {
    const response = GET();
    expect(response.status).toBe(308);
    expect(response.headers.get('Location')).toBe('/icon.svg');
  });
});
