import { z } from 'zod';

// On its first use zod probes whether it may generate code (`new Function`) for faster parsing. Under our
// Content-Security-Policy (no 'unsafe-eval', docs/decisions/005) that probe is a reported violation in the
// browser, so there zod parses without generated code. The server keeps the faster parsers.
if (typeof window !== 'undefined') z.config({ jitless: true });
