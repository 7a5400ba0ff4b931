/**
 * Next.js keeps each request's state in AsyncLocalStorage, which its own server entry puts on globalThis before
 * anything else loads. This custom server loads features first, and one that reaches `next/server` at load time
 * (message-sending → messaging-webhooks → the route helpers) would make Next settle for a stand-in that throws
 * once a request runs ("AsyncLocalStorage accessed in runtime where it is not available"). So the global is set
 * here, as Next's entry does, and serve.ts imports this module before any other.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const global = globalThis as { AsyncLocalStorage?: unknown };
if (typeof global.AsyncLocalStorage !== 'function') global.AsyncLocalStorage = AsyncLocalStorage;
