/**
 * The one place the application takes `z` from (ESLint keeps `from 'zod'` out of src but for type imports and
 * the pure engine). On its first object schema zod probes whether it may generate code (`new Function`) for
 * faster parsing; under our Content-Security-Policy (no 'unsafe-eval', docs/decisions/005) that probe is a
 * reported violation in the browser, so there zod works without generated code, set here before any schema
 * that imports `z` from this module is built. The server keeps the faster parsers. Before, the shell set it,
 * which put zod's 110 kB in every page's scripts (decision 059).
 */
import { z } from 'zod';

if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
