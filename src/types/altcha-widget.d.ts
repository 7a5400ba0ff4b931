import type { DetailedHTMLProps, HTMLAttributes } from 'react';

// The ALTCHA web component (package "altcha"), as JSX.
declare module 'react' {
  // React's JSX types are declared as a namespace and interface; augmenting them needs the same forms.
  namespace JSX {
    // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
    interface IntrinsicElements {
      'altcha-widget': DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
        challenge?: string;
        name?: string;
        language?: string;
        auto?: 'off' | 'onfocus' | 'onload' | 'onsubmit';
      };
    }
  }
}
