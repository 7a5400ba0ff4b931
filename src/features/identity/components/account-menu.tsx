'use client';

import { Avatar, Dropdown } from '@heroui/react';
import { hasPermission } from '@/lib/permissions';
import { routes } from '@/lib/routes';
import { useAuthState } from './auth-state';

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter((part) => part !== '' && !part.startsWith('+'))
    .map((part) => part[0]?.toUpperCase())
    .join('');
  return letters.slice(0, 2) || '?';
}

/** Seed-spec §2 avatar menu: Profile, Contact Us (opens the contact modal), Settings, Logout; Administration for admins. */
export function AccountMenu({ onContactPress }: { onContactPress: () => void }) {
  const { user, userData, logout } = useAuthState();
  const name = userData?.displayName ?? user?.name ?? '';
  return (
    <Dropdown>
      <Dropdown.Trigger aria-label="Account menu" className="rounded-full">
        <Avatar size="sm">
          <Avatar.Fallback>{initials(name)}</Avatar.Fallback>
        </Avatar>
      </Dropdown.Trigger>
      <Dropdown.Popover placement="bottom end">
        <Dropdown.Menu
          aria-label="Account"
          onAction={(key) => {
            if (key === 'contact') onContactPress();
            if (key === 'logout') void logout();
          }}
        >
          <Dropdown.Item id="profile" href={routes.profile} textValue="Profile">
            Profile
          </Dropdown.Item>
          <Dropdown.Item id="contact" textValue="Contact Us">
            Contact Us
          </Dropdown.Item>
          <Dropdown.Item id="settings" href={routes.settings} textValue="Settings">
            Settings
          </Dropdown.Item>
          {userData && hasPermission(userData.role, 'users:administer') ? (
            <Dropdown.Item id="administration" href={routes.administration} textValue="Administration">
              Administration
            </Dropdown.Item>
          ) : null}
          <Dropdown.Item id="logout" textValue="Logout">
            Logout
          </Dropdown.Item>
        </Dropdown.Menu>
      </Dropdown.Popover>
    </Dropdown>
  );
}
