import { describe, expect, it, vi } from 'vitest';

// The route as a browser reaches it, signed in; the database is never reached for a malformed id.
vi.mock('@/lib/server/session', () => ({
  getSessionUser: async () => ({
    id: 'user-1',
    email: 'a@example.org',
    name: 'A',
    role: 'clinician',
    phoneNumber: null,
    twoFactorEnabled: false,
  }),
}));
vi.mock('@/db/client', () => ({ getDatabase: () => ({}) }));

const { GET } = await import('./route');

describe('GET /api/jobs/[id]', () => {
  it.each(['zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', '------------------------------------', '123', "'; drop table jobs; --"])(
    'answers 400 naming the field id for the malformed id %j, never 500',
    async (id) => {
      const response = await GET(new Request(`http://localhost/api/jobs/${encodeURIComponent(id)}`), { params: Promise.resolve({ id }) });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; fieldErrors?: Record<string, string> } };
      expect(body.error.code).toBe('validation');
      expect(body.error.fieldErrors).toHaveProperty('id');
    },
  );
});
