import 'server-only';
import type { Database } from '@/db/client';
import type { ProfileChangeHub } from '@/lib/server/profile-changes';
import type { SessionUser } from '@/lib/server/session';
import { getProfileDocument } from './get-profile-document';

const encoder = new TextEncoder();

function event(name: string, data: unknown): Uint8Array {
  return encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * The live subscription to a user's profile document as Server-Sent Events: the document now ("profile",
 * null when missing), again after every change from any instance, "signed-out" when the session ends, and a
 * comment every 25 s so proxies keep the connection open.
 */
export function streamProfileDocument(options: {
  database: Database;
  hub: ProfileChangeHub;
  user: SessionUser;
  /** Re-checks the session; false ends the stream with "signed-out". */
  sessionIsValid: () => Promise<boolean>;
  signal: AbortSignal;
}): ReadableStream<Uint8Array> {
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const send = async () => {
        try {
          const document = await getProfileDocument({ database: options.database, uid: options.user.id });
          if (!closed) controller.enqueue(event('profile', document));
        } catch {
          if (!closed) controller.enqueue(event('subscription-error', { message: 'The profile could not be read.' }));
        }
      };
      const unsubscribe = options.hub.subscribe(options.user.id, () => void send());
      const heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(': keep-alive\n\n'));
      }, 25_000);
      const sessionCheck = setInterval(() => {
        void options.sessionIsValid().then((valid) => {
          if (!valid && !closed) {
            controller.enqueue(event('signed-out', {}));
            close();
          }
        });
      }, 60_000);
      cleanup = () => {
        unsubscribe();
        clearInterval(heartbeat);
        clearInterval(sessionCheck);
      };
      options.signal.addEventListener('abort', close);
      void send();
    },
    cancel() {
      cleanup();
    },
  });
}
