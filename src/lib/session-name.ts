import { UAParser } from 'ua-parser-js';

/**
 * A session as people recognise it — "Chrome 120 on Linux", "Safari on iOS 17.4" — from the user agent the
 * browser sent when it signed in. Parsing user agents is a moving target (new browsers, frozen and reduced
 * strings), so a maintained library (ua-parser-js) does it rather than hand-written patterns.
 */
export function sessionName(userAgent: string | null | undefined): string {
  if (userAgent === null || userAgent === undefined || userAgent.trim() === '') return 'Unknown browser';
  const { browser, os, device } = new UAParser(userAgent).getResult();
  const browserName = browser.name === undefined ? null : [browser.name, browser.major].filter(Boolean).join(' ');
  const system = os.name === undefined ? null : [os.name, os.version].filter(Boolean).join(' ');
  const deviceName = device.vendor !== undefined && device.model !== undefined ? `${device.vendor} ${device.model}` : null;
  if (browserName === null && system === null) return 'Unknown browser';
  const where = [system, deviceName === null ? null : `(${deviceName})`].filter(Boolean).join(' ');
  if (browserName === null) return `A browser on ${where}`;
  return where === '' ? browserName : `${browserName} on ${where}`;
}
