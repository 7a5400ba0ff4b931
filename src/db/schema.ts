import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every message sent through the contact form (seed-spec §3 "Contact message fields"). */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    contactName: text('contact_name').notNull(),
    contactEmail: text('contact_email').notNull(),
    contactNumber: text('contact_number'),
    /** 'smtp' when SMTP_URL was configured, otherwise 'outbox'. */
    deliveryChannel: text('delivery_channel', { enum: ['smtp', 'outbox'] }).notNull(),
    /** 'sent' once handed to the SMTP server or recorded in the outbox; 'failed' keeps the message for a retry. */
    deliveryStatus: text('delivery_status', { enum: ['pending', 'sent', 'failed'] }).notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('contact_messages_created_at_idx').on(table.createdAt)],
);

/** The local counterpart of e-mail and SMS delivery for development and tests (DESIGN §4 "Channels"). */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('outbox_messages_created_at_idx').on(table.createdAt)],
);

/** Fixed-window counters; kept in the database so a limit holds across app instances. */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.windowStart] }),
    index('rate_limit_counters_window_start_idx').on(table.windowStart),
  ],
);

/** Settings generated once per installation and shared by every instance (for example the auth secret). */
export const instanceSettings = pgTable('instance_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------------------
// Identity: the tables better-auth reads and writes (core, phone-number, two-factor, database rate limits).
// Column names are ours; the property names are the ones better-auth expects.
// ---------------------------------------------------------------------------------------------------------

export const authUsers = pgTable('auth_users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  phoneNumber: text('phone_number').unique(),
  phoneNumberVerified: boolean('phone_number_verified'),
  twoFactorEnabled: boolean('two_factor_enabled').default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const authSessions = pgTable(
  'auth_sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('auth_sessions_user_id_idx').on(table.userId)],
);

export const authAccounts = pgTable(
  'auth_accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('auth_accounts_user_id_idx').on(table.userId)],
);

export const authVerifications = pgTable(
  'auth_verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('auth_verifications_identifier_idx').on(table.identifier)],
);

export const authTwoFactors = pgTable(
  'auth_two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    verified: boolean('verified').default(true),
    failedVerificationCount: integer('failed_verification_count').default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (table) => [index('auth_two_factors_user_id_idx').on(table.userId), index('auth_two_factors_secret_idx').on(table.secret)],
);

/** better-auth's request limits, kept in the database so they hold across instances. */
export const authRateLimits = pgTable('auth_rate_limits', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

// ---------------------------------------------------------------------------------------------------------
// The profile document (seed-spec §3 "users" collection, keyed by the user's uid), companies, memberships.
// ---------------------------------------------------------------------------------------------------------

export const roles = ['patient', 'clinician', 'drug-manufacturer', 'government-official', 'admin'] as const;
export type Role = (typeof roles)[number];

export const userProfiles = pgTable('user_profiles', {
  uid: text('uid')
    .primaryKey()
    .references(() => authUsers.id, { onDelete: 'cascade' }),
  role: text('role', { enum: roles }).notNull().default('patient'),
  /** Company id → company name (seed-spec §3). */
  selectedDrugCompanies: jsonb('selected_drug_companies').$type<Record<string, string>>().notNull().default({}),
  /** Milliseconds since the epoch of the last update (seed-spec §3). */
  updatedUnix: bigint('updated_unix', { mode: 'number' }).notNull(),
  displayName: text('display_name'),
  phone: text('phone'),
  timezone: text('timezone'),
  language: text('language'),
  /** Further profile fields as the product grows. */
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
});

export const drugCompanies = pgTable('drug_companies', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const companyMemberships = pgTable(
  'company_memberships',
  {
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => drugCompanies.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.companyId] }), index('company_memberships_company_idx').on(table.companyId)],
);

/** Append-only record of security-relevant events: who, when, from where, what, outcome. Never a secret. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    actorUserId: text('actor_user_id'),
    clientAddress: text('client_address'),
    action: text('action').notNull(),
    targetUserId: text('target_user_id'),
    outcome: text('outcome', { enum: ['success', 'failure', 'denied'] }).notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [index('audit_log_occurred_at_idx').on(table.occurredAt), index('audit_log_actor_idx').on(table.actorUserId)],
);

/** Single-use proofs already spent (a solved captcha, a TOTP code): a second use is refused until it expires. */
export const spentTokens = pgTable(
  'spent_tokens',
  {
    key: text('key').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('spent_tokens_expires_at_idx').on(table.expiresAt)],
);
