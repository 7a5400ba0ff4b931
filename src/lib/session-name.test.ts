import { describe, expect, it } from 'vitest';
import { sessionName } from './session-name';

describe('sessionName', () => {
  it('names the browser with its major version and the system', () => {
    expect(
      sessionName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'),
    ).toBe('Chrome 131 on Windows 10');
    expect(sessionName('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox 133 on Linux');
    expect(
      sessionName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Mobile Safari 17 on iOS 17.4 (Apple iPhone)');
  });

  it('says "Unknown browser" for a missing or unreadable user agent', () => {
    expect(sessionName(null)).toBe('Unknown browser');
    expect(sessionName('')).toBe('Unknown browser');
    expect(sessionName('curl-but-not-really')).toBe('Unknown browser');
  });
});
