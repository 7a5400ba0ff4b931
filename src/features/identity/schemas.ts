import { z } from '@/lib/zod';
import { type Role, roles } from '@/lib/domain/roles';
import { isE164PhoneNumber } from '@/lib/phone-number';

export { roles };
export type { Role };

/** The profile document of seed-spec §3 as pages receive it. */
export type ProfileDocument = {
  uid: string;
  role: Role;
  /** Company id → company name. */
  selectedDrugCompanies: Record<string, string>;
  /** Milliseconds since the epoch of the last update. */
  updatedUnix: number;
  displayName: string | null;
  phone: string | null;
  timezone: string | null;
  language: string | null;
  /** The companies this user belongs to (what they may select). */
  memberCompanies: { id: string; name: string }[];
};

export { noUserLoggedIn } from '@/lib/errors';

export const roleSchema = z.enum(roles, {
  error: 'role must be one of: patient, clinician, drug-manufacturer, government-official, admin',
});

/** What setting a role takes (the field is named, so an error names it). */
export const roleInputSchema = z.object({ role: roleSchema });

/** Seed-spec §3: a map of company id to name; the helper also accepts a list of ids. */
export const selectedDrugCompaniesSchema = z.union(
  [z.array(z.string().min(1).max(100)).max(200), z.record(z.string().min(1).max(100), z.string().max(200))],
  { error: 'selectedDrugCompanies must be a list of company ids or a map of company id to name' },
);

/** The selection as a named field, so an error names it. */
/** Why a selection with nothing ticked is refused. */
export const emptyCompanySelection = 'Tick at least one company: the portal shows the companies you choose.';

export const selectedDrugCompaniesInputSchema = z.object({ selectedDrugCompanies: selectedDrugCompaniesSchema });

const optionalProfileText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

export const profileUpdateSchema = z.strictObject(
  {
    displayName: optionalProfileText('Display name', 120),
    phone: optionalProfileText('Phone', 32).refine((value) => value == null || isE164PhoneNumber(value), {
      message: 'Phone must be in international form, for example +447700900123.',
    }),
    timezone: optionalProfileText('Time zone', 64).refine(
      (value) => {
        if (value == null) return true;
        try {
          new Intl.DateTimeFormat('en', { timeZone: value });
          return true;
        } catch {
          return false;
        }
      },
      { message: 'Time zone must be an IANA time zone such as Europe/London.' },
    ),
    language: optionalProfileText('Language', 35).refine((value) => value == null || /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(value), {
      message: 'Language must be a language tag such as en or en-GB.',
    }),
  },
  // Mass assignment: role, updatedUnix and the companies cannot ride along in a profile update.
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')} cannot be changed here.` : undefined) },
);

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export type UserSummary = {
  id: string;
  email: string;
  name: string;
  role: Role;
  companies: { id: string; name: string }[];
  createdAt: string;
};
