'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ActionResult } from '@/lib/server/action-result';
import { type Role, roleNames } from '@/lib/domain/roles';
import { roles, type UserSummary } from '../schemas';
import { FormMessage } from './login/form-message';

type Props = {
  users: UserSummary[];
  companies: { id: string; name: string }[];
  grantRole: (input: { targetUserId: string; role: string }) => Promise<ActionResult<unknown>>;
  setCompanyMembership: (input: { targetUserId: string; companyId: string; member: boolean }) => Promise<ActionResult<unknown>>;
};

/** /admin: every account, its role and its company memberships; an admin grants both. */
export function UserAdministration({ users, companies, grantRole, setCompanyMembership }: Props) {
  const router = useRouter();
  const [message, setMessage] = useState<{ error?: string; notice?: string }>({});
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<ActionResult<unknown>>, done: string) => {
    setBusy(true);
    setMessage({});
    const result = await work().catch(() => null);
    setBusy(false);
    if (result === null) setMessage({ error: 'We could not reach the server. Nothing was changed.' });
    else if (!result.ok) setMessage({ error: result.error.message });
    else {
      setMessage({ notice: done });
      router.refresh();
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <FormMessage error={message.error} notice={message.notice} />
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Users, their roles and companies</caption>
          <thead>
            <tr className="border-b border-separator">
              <th scope="col" className="py-2 pr-4">
                User
              </th>
              <th scope="col" className="py-2 pr-4">
                Role
              </th>
              <th scope="col" className="py-2">
                Companies
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id} className="border-b border-separator align-top">
                <td className="py-3 pr-4">
                  <div className="font-medium">{user.name}</div>
                  <div className="text-muted">{user.email}</div>
                </td>
                <td className="py-3 pr-4">
                  <select
                    aria-label={`Role of ${user.email}`}
                    className="rounded-lg border border-separator bg-background px-2 py-1"
                    value={user.role}
                    disabled={busy}
                    onChange={(event) =>
                      void run(
                        () => grantRole({ targetUserId: user.id, role: event.target.value }),
                        `${user.email} is now ${roleNames[event.target.value as Role] ?? event.target.value}.`,
                      )
                    }
                  >
                    {roles.map((role) => (
                      <option key={role} value={role}>
                        {roleNames[role]}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="py-3">
                  <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
                    <legend className="sr-only">Companies of {user.email}</legend>
                    {companies.map((company) => {
                      const member = user.companies.some((membership) => membership.id === company.id);
                      return (
                        <label key={company.id} className="flex items-center gap-1">
                          <input
                            type="checkbox"
                            checked={member}
                            disabled={busy}
                            onChange={() =>
                              void run(
                                () => setCompanyMembership({ targetUserId: user.id, companyId: company.id, member: !member }),
                                `${user.email} ${member ? 'left' : 'joined'} ${company.name}.`,
                              )
                            }
                          />
                          {company.name}
                        </label>
                      );
                    })}
                  </fieldset>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
