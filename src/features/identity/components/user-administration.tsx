'use client';

import { Checkbox, Label, ListBox, Select } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ActionResult } from '@/lib/server/action-result';
import { type Role, roleNames } from '@/lib/domain/roles';
import { roles, type UserSummary } from '../schemas';
import { FormMessage } from './login/form-message';
import { TableScroll } from '@/lib/components/table-scroll';

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
      <TableScroll label="Users">
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
                  <Select
                    className="w-48"
                    variant="secondary"
                    value={user.role}
                    isDisabled={busy}
                    onChange={(key) => {
                      const role = String(key);
                      if (role === user.role) return;
                      void run(
                        () => grantRole({ targetUserId: user.id, role }),
                        `${user.email} is now ${roleNames[role as Role] ?? role}.`,
                      );
                    }}
                  >
                    <Label className="sr-only">Role of {user.email}</Label>
                    <Select.Trigger>
                      <Select.Value />
                      <Select.Indicator />
                    </Select.Trigger>
                    <Select.Popover>
                      <ListBox>
                        {roles.map((role) => (
                          <ListBox.Item key={role} id={role} textValue={roleNames[role]}>
                            {roleNames[role]}
                            <ListBox.ItemIndicator />
                          </ListBox.Item>
                        ))}
                      </ListBox>
                    </Select.Popover>
                  </Select>
                </td>
                <td className="py-3">
                  <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
                    <legend className="sr-only">Companies of {user.email}</legend>
                    {companies.map((company) => {
                      const member = user.companies.some((membership) => membership.id === company.id);
                      return (
                        <Checkbox
                          key={company.id}
                          isSelected={member}
                          isDisabled={busy}
                          onChange={() =>
                            void run(
                              () => setCompanyMembership({ targetUserId: user.id, companyId: company.id, member: !member }),
                              `${user.email} ${member ? 'left' : 'joined'} ${company.name}.`,
                            )
                          }
                        >
                          <Checkbox.Control>
                            <Checkbox.Indicator />
                          </Checkbox.Control>
                          <Checkbox.Content>
                            <Label>{company.name}</Label>
                          </Checkbox.Content>
                        </Checkbox>
                      );
                    })}
                  </fieldset>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
