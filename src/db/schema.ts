import 'server-only';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  customType,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
// Relative, not `@/`: drizzle-kit loads this file without the project's path aliases.
import { channels } from '../lib/domain/channels';
import { consentChannels, consentPurposes, consentSources } from '../lib/domain/consent';
import { doseStatuses, missedDoseReasons } from '../lib/domain/dose-statuses';
import { type ImportBatchCounts, importBatchStatuses, importBatchTables } from '../lib/domain/import-batches';
import type { InboundReading, MessageReplyChoices, MessageStatusEntry } from '../lib/domain/message-records';
import type { ChatMessage } from '../engine/chat-export';
import type { SurveyAnswers, SurveyDefinition } from '../engine/surveys/types';
import { messagingProgrammes, policyDecisionSources, policyDecisionStatuses } from '../lib/domain/messaging-programmes';
import { type Role, roles } from '../lib/domain/roles';

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
    deliveryStatus: text('delivery_status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
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
  (table) => [primaryKey({ columns: [table.key, table.windowStart] }), index('rate_limit_counters_window_start_idx').on(table.windowStart)],
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

export const authUsers = pgTable(
  'auth_users',
  {
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
  },
  (table) => [
    // Inbound webhooks find a patient by the digits of a verified number (phoneDigitsOf in the same expression).
    index('auth_users_verified_phone_digits_idx')
      .on(sql`regexp_replace(${table.phoneNumber}, '[^0-9]', '', 'g')`)
      .where(sql`${table.phoneNumberVerified}`),
  ],
);

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

// The role list lives in a browser-safe module; re-exported for server code that reads it with the schema.
export { type Role, roles };

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
    /** The request that caused the event (x-request-id), to find every row of one request. */
    requestId: text('request_id'),
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

// ---------------------------------------------------------------------------------------------------------
// Clinical data (DESIGN §6). Every imported row carries (source, source_record_id) under a unique index, so
// importing the same record twice changes nothing. Dates without a time are `date` (ISO strings).
// ---------------------------------------------------------------------------------------------------------

export const organisations = pgTable('organisations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Clinicians see the patients of their organisations. */
export const organisationMemberships = pgTable(
  'organisation_memberships',
  {
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    organisationId: text('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.organisationId] })],
);

export const products = pgTable(
  'products',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').references(() => drugCompanies.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    genericName: text('generic_name').notNull(),
    atcCode: text('atc_code'),
    rxnormCode: text('rxnorm_code'),
    ndcCode: text('ndc_code'),
    strength: text('strength'),
    form: text('form'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('products_company_idx').on(table.companyId), index('products_atc_idx').on(table.atcCode)],
);

export { channels };

export const patients = pgTable(
  'patients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Shown instead of a name: pages and exports never carry identity. */
    pseudonym: text('pseudonym').notNull().unique(),
    source: text('source').notNull(),
    sourceRecordId: text('source_record_id').notNull(),
    /** The account of the patient, when they use the app themselves. */
    userId: text('user_id')
      .unique()
      .references(() => authUsers.id, { onDelete: 'set null' }),
    organisationId: text('organisation_id').references(() => organisations.id, { onDelete: 'set null' }),
    persona: text('persona'),
    ageBand: text('age_band'),
    sex: text('sex'),
    region: text('region'),
    language: text('language'),
    timezone: text('timezone'),
    preferredChannel: text('preferred_channel', { enum: channels }),
    conditions: text('conditions').array().notNull().default([]),
    /** The live messaging programme the patient is enrolled in; null: not enrolled, the daily loop skips them. */
    messagingProgramme: text('messaging_programme', { enum: messagingProgrammes }),
    /** True for simulator output (labelled "synthetic demo data" wherever shown). */
    synthetic: boolean('synthetic').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('patients_source_record_idx').on(table.source, table.sourceRecordId),
    index('patients_organisation_idx').on(table.organisationId),
    index('patients_messaging_programme_idx').on(table.messagingProgramme),
  ],
);

/**
 * The consent ledger (docs/decisions/016-consent-ledger.md): every opt-in and opt-out per patient, channel
 * and purpose, with where it came from and when. Append-only (a trigger refuses updates); the current
 * consent is the latest event of each channel and purpose, so no second copy can disagree with it.
 */
export const consentEvents = pgTable(
  'consent_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: consentChannels }).notNull(),
    purpose: text('purpose', { enum: consentPurposes }).notNull(),
    /** True for an opt-in, false for an opt-out. */
    granted: boolean('granted').notNull(),
    source: text('source', { enum: consentSources }).notNull(),
    /** The signed-in user who made the change (the patient, a clinician); null for a keyword, an import or a seed. */
    actorUserId: text('actor_user_id').references(() => authUsers.id, { onDelete: 'set null' }),
    /** When the change took effect (a keyword: when the message arrived). Ties are broken by id. */
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('consent_events_patient_idx').on(table.patientId, table.channel, table.purpose, table.effectiveAt, table.id)],
);

export const regimens = pgTable(
  'regimens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    productId: text('product_id').references(() => products.id, { onDelete: 'set null' }),
    /** The medication as the source named it (code or text), when no product matched. */
    medicationCode: text('medication_code'),
    dosesPerDay: doublePrecision('doses_per_day').notNull(),
    doseTimes: text('dose_times').array().notNull().default([]),
    startDate: date('start_date').notNull(),
    endDate: date('end_date'),
    /** What the prescription intends per fill (FHIR dispenseRequest): days of supply and quantity. */
    daysPerFill: doublePrecision('days_per_fill'),
    quantityPerFill: doublePrecision('quantity_per_fill'),
    /** Refills allowed after the first fill (dispenseRequest.numberOfRepeatsAllowed). */
    repeatsAllowed: integer('repeats_allowed'),
    source: text('source').notNull(),
    sourceRecordId: text('source_record_id').notNull(),
  },
  (table) => [
    uniqueIndex('regimens_source_record_idx').on(table.source, table.sourceRecordId),
    index('regimens_patient_idx').on(table.patientId),
  ],
);

export const dispensings = pgTable(
  'dispensings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    productId: text('product_id').references(() => products.id, { onDelete: 'set null' }),
    medicationCode: text('medication_code'),
    dispensedOn: date('dispensed_on').notNull(),
    daysSupply: integer('days_supply').notNull(),
    quantity: doublePrecision('quantity'),
    /** Doses a day the fill was meant for (AdhereR's PERDAY), when known. */
    dosesPerDay: doublePrecision('doses_per_day'),
    source: text('source').notNull(),
    sourceRecordId: text('source_record_id').notNull(),
  },
  (table) => [
    uniqueIndex('dispensings_source_record_idx').on(table.source, table.sourceRecordId),
    index('dispensings_patient_date_idx').on(table.patientId, table.dispensedOn),
    index('dispensings_product_date_idx').on(table.productId, table.dispensedOn),
  ],
);

export { doseStatuses };

export const doseEvents = pgTable(
  'dose_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    productId: text('product_id').references(() => products.id, { onDelete: 'set null' }),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    status: text('status', { enum: doseStatuses }).notNull(),
    /** A missed dose's reason, as the patient's reply gave it (reply classifier); null when not said. */
    missedReason: text('missed_reason', { enum: missedDoseReasons }),
    /** What observed it: app, whatsapp-reply, sms-reply, smart-bottle, fhir, simulation. */
    source: text('source').notNull(),
    /** The sender's idempotency key (dose-event API) or the source record id. */
    sourceRecordId: text('source_record_id').notNull(),
  },
  (table) => [
    uniqueIndex('dose_events_source_record_idx').on(table.source, table.sourceRecordId),
    index('dose_events_patient_time_idx').on(table.patientId, table.scheduledAt),
    index('dose_events_product_idx').on(table.productId),
    // The portal reads the days after its pre-aggregated dose slots directly (decision 039).
    index('dose_events_scheduled_idx').on(table.scheduledAt),
    // The message facts find the first confirmation after a message (decision 049).
    index('dose_events_taken_confirmed_idx')
      .on(table.patientId, table.confirmedAt)
      .where(sql`${table.status} = 'taken' and ${table.confirmedAt} is not null`),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: channels }).notNull(),
    direction: text('direction', { enum: ['outbound', 'inbound'] }).notNull(),
    category: text('category'),
    framing: text('framing'),
    templateId: text('template_id'),
    body: text('body'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    status: text('status').notNull(),
    /** [{ status, at }] in time order: sent, delivered, read, failed (with the provider's error codes). */
    statusHistory: jsonb('status_history').$type<MessageStatusEntry[]>().notNull().default([]),
    replyText: text('reply_text'),
    /** The provider's id (WhatsApp wamid, Twilio MessageSid): status webhooks find the message by it. */
    providerMessageId: text('provider_message_id'),
    /** Inbound only: the provider id of the message it answers (WhatsApp context or reaction target). */
    replyToProviderMessageId: text('reply_to_provider_message_id'),
    /** Inbound only: what the patient sent and the engine's reading of it (keyword or dose answer). */
    inboundReading: jsonb('inbound_reading').$type<InboundReading>(),
    /** Outbound only: the policy decision it carries out (a WhatsApp message and its SMS fallback share one). */
    policyDecisionId: uuid('policy_decision_id').references((): AnyPgColumn => policyDecisions.id, { onDelete: 'set null' }),
    /** Template language and version sent (outbound), so a later edit of the template does not rewrite history. */
    templateLanguage: text('template_language'),
    templateVersion: integer('template_version'),
    /** Outbound interactive WhatsApp only: the choices it offered (reply buttons or list rows), for /dev/phone. */
    replyChoices: jsonb('reply_choices').$type<MessageReplyChoices>(),
    /** Inbound only: when a clinician looked at a reply the engine did not recognise, and who. */
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: text('reviewed_by').references(() => authUsers.id, { onDelete: 'set null' }),
    source: text('source').notNull(),
    sourceRecordId: text('source_record_id').notNull(),
  },
  (table) => [
    uniqueIndex('messages_source_record_idx').on(table.source, table.sourceRecordId),
    uniqueIndex('messages_provider_message_idx').on(table.channel, table.providerMessageId),
    index('messages_patient_time_idx').on(table.patientId, table.sentAt),
    index('messages_time_idx').on(table.sentAt),
    // One message per decision and channel: a retried send job finds the message it already sent.
    uniqueIndex('messages_policy_decision_channel_idx').on(table.policyDecisionId, table.channel),
    index('messages_reply_to_idx').on(table.channel, table.replyToProviderMessageId),
  ],
);

/**
 * Every decision of a messaging policy (live daily loop or simulator): the context it saw, what it chose,
 * with what probability (for off-policy evaluation, DESIGN.md §3), the random seed, and later the reward.
 * One live decision per patient and local day: the unique key is the daily loop's idempotency key.
 */
export const policyDecisions = pgTable(
  'policy_decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    source: text('source', { enum: policyDecisionSources }).notNull(),
    /** The patient's local date the decision is for. */
    localDate: date('local_date').notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
    policyName: text('policy_name').notNull(),
    policyVersion: text('policy_version').notNull(),
    /** The DecisionContext the policy saw (engine/policy/contract.ts). */
    context: jsonb('context').$type<Record<string, unknown>>().notNull(),
    /** 'no-message' or 'message'; for a message its arm, template variant and local minute of day. */
    action: text('action', { enum: ['no-message', 'message'] }).notNull(),
    category: text('category'),
    framing: text('framing'),
    templateId: text('template_id'),
    minuteOfDay: integer('minute_of_day'),
    propensity: doublePrecision('propensity').notNull(),
    /** The seed of the random stream the policy drew from, so the decision can be replayed. */
    randomSeed: text('random_seed').notNull(),
    /** When the message is due to go (UTC), after quiet hours and the frequency cap; null for no message. */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    status: text('status', { enum: policyDecisionStatuses }).notNull(),
    /** Why a planned message was not sent (no-consent, no-number, frequency-cap, quiet-hours, provider …). */
    statusReason: text('status_reason'),
    /**
     * The probability of every action at decision time (index 0: no message; 1 + armIndex for each
     * category × framing, engine/policy/message-arms.ts), for off-policy evaluation of other policies;
     * null for a policy that only reports the propensity of its choice.
     */
    armProbabilities: jsonb('arm_probabilities').$type<number[]>(),
    /** Share of the day's scheduled doses confirmed, filled in once the day is over; null until then. */
    reward: doublePrecision('reward'),
    rewardedAt: timestamp('rewarded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('policy_decisions_patient_day_idx').on(table.patientId, table.source, table.localDate),
    index('policy_decisions_status_idx').on(table.status, table.scheduledFor),
    index('policy_decisions_policy_idx').on(table.policyName, table.decidedAt),
  ],
);

/**
 * The learning policy's state (its posterior per persona and patient, engine/policy), one row per version:
 * every nightly update adds a version and none is overwritten, so each logged decision's policy_version
 * names the exact beliefs it was drawn from and the learning can be replayed and shown over time.
 */
export const policyStates = pgTable(
  'policy_states',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    policyName: text('policy_name').notNull(),
    /** Unique per policy; policy_decisions.policy_version refers to it. */
    version: text('version').notNull(),
    source: text('source', { enum: policyDecisionSources }).notNull(),
    /** The engine's serialised state (JSON); its shape belongs to engine/policy. */
    state: jsonb('state').$type<Record<string, unknown>>().notNull(),
    /** The settings it decides with (exploration floor, burden weight, caps). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    /** Rewarded decisions learned from, in all versions up to this one. */
    decisionsUsed: integer('decisions_used').notNull().default(0),
    /** decided_at of the latest decision this version learned from; null for the prior. */
    trainedThrough: timestamp('trained_through', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('policy_states_version_idx').on(table.policyName, table.version),
    index('policy_states_created_idx').on(table.policyName, table.createdAt),
  ],
);

/**
 * The template library as stored (the engine's library is version 1 of each template): every edit adds a
 * version, none is overwritten, so what any message said can be traced (`messages.template_version`).
 * The current text of a template and language is its highest version.
 */
export const messageTemplateVersions = pgTable(
  'message_template_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** `category.framing.variant`, e.g. `reminder.gain.2`. */
    templateId: text('template_id').notNull(),
    language: text('language').notNull(),
    version: integer('version').notNull(),
    body: text('body').notNull(),
    whatsAppName: text('whatsapp_name').notNull(),
    whatsAppLanguage: text('whatsapp_language').notNull(),
    /** utility or marketing (Meta's categories). */
    whatsAppCategory: text('whatsapp_category').notNull(),
    /** not-submitted, pending, approved, rejected, paused, disabled (Meta's review). */
    approvalStatus: text('approval_status').notNull(),
    /** Who saved this version; null for the library's own first version. */
    editedBy: text('edited_by').references(() => authUsers.id, { onDelete: 'set null' }),
    /** Why the version was made (the editor's note). */
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('message_template_versions_idx').on(table.templateId, table.language, table.version)],
);

/** Every webhook event applied (decision 012): the unique key makes a provider's retry change nothing. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider', { enum: ['whatsapp', 'twilio'] }).notNull(),
    /** provider:kind:provider message id[:status], e.g. "whatsapp:status:wamid.X:read", "twilio:message:SM…". */
    eventKey: text('event_key').notNull().unique(),
    kind: text('kind', { enum: ['status', 'inbound'] }).notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    /** What applying it did: recorded, or kept without effect because nobody or nothing matched. */
    outcome: text('outcome', { enum: ['recorded', 'unknown-sender', 'unknown-message'] }).notNull(),
    patientId: uuid('patient_id').references(() => patients.id, { onDelete: 'set null' }),
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    /** The sender's number (digits) of an inbound event, so one from an unknown number can still be traced. */
    sender: text('sender'),
    /** Status and error codes, or the engine's reading of an inbound message; never the message text. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('webhook_events_received_at_idx').on(table.receivedAt),
    index('webhook_events_patient_idx').on(table.patientId),
    // Statuses that came before their message's provider id (decision 019 addendum): every send looks here for its
    // id, so the lookup reads this small index, not the whole table (about four rows per message sent).
    index('webhook_events_unknown_message_idx')
      .on(table.providerMessageId)
      .where(sql`${table.outcome} = 'unknown-message'`),
  ],
);

export const dataSources = pgTable('data_sources', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['fhir', 'pharmacy-csv', 'dose-event-api', 'whatsapp', 'sms', 'simulation'] }).notNull(),
  name: text('name').notNull(),
  status: text('status', { enum: ['active', 'paused', 'revoked'] })
    .notNull()
    .default('active'),
  /** For the dose-event API: a hash of the source's API key (the key itself is shown once). */
  apiKeyHash: text('api_key_hash').unique(),
  lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One import (an upload, a FHIR API call, a command-line run): who ran it, when, from which file, and what it
 * wrote. Undoing it removes the rows it created that no live batch also delivered (docs/decisions/010).
 */
export const importBatches = pgTable(
  'import_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    format: text('format', { enum: ['fhir', 'csv'] }).notNull(),
    source: text('source').notNull(),
    /** As the uploader named it (may name a patient: shown only to whoever may see the batch, never logged). */
    fileName: text('file_name'),
    via: text('via', { enum: ['web', 'cli'] }).notNull(),
    /** The user who ran it; null for the operator at the command line. */
    createdBy: text('created_by'),
    /** The background job that runs it: a job resumed or retried continues the same batch. */
    jobId: uuid('job_id').unique(),
    status: text('status', { enum: importBatchStatuses }).notNull().default('running'),
    /** Entries of the file, and those skipped, from the import's report. */
    resources: integer('resources'),
    skipped: integer('skipped'),
    /** Rows the batch inserted, per table; rows it delivered (inserted or found already there), per table. */
    createdRows: jsonb('created_rows').$type<ImportBatchCounts>().notNull().default({}),
    deliveredRows: jsonb('delivered_rows').$type<ImportBatchCounts>().notNull().default({}),
    /** Rows the undo deleted, per table. */
    removedRows: jsonb('removed_rows').$type<ImportBatchCounts>(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    undoneBy: text('undone_by'),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    /** The background job of an undo too large for one transaction. */
    undoJobId: uuid('undo_job_id'),
  },
  (table) => [
    index('import_batches_started_idx').on(table.startedAt),
    index('import_batches_created_by_idx').on(table.createdBy, table.startedAt),
  ],
);

/**
 * Every row a batch delivered: inserted by it (`created`) or matched as already present (rows are keyed by
 * source and record id and inserted with ON CONFLICT DO NOTHING, so two batches can deliver one row). An undo
 * deletes a row only when some batch created it and every batch that delivered it is undone.
 */
export const importBatchRows = pgTable(
  'import_batch_rows',
  {
    batchId: uuid('batch_id')
      .notNull()
      .references(() => importBatches.id, { onDelete: 'cascade' }),
    tableName: text('table_name', { enum: importBatchTables }).notNull(),
    /** The row's primary key as text (uuid or product/source id). */
    rowId: text('row_id').notNull(),
    created: boolean('created').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.batchId, table.tableName, table.rowId] }),
    index('import_batch_rows_row_idx').on(table.tableName, table.rowId),
  ],
);

/** Durable background jobs (imports, simulations, messages): claimed with FOR UPDATE SKIP LOCKED when due, resumable, retried with backoff (decision 006). */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] })
      .notNull()
      .default('queued'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** Where a resumed job continues (the handler's own bookmark). */
    checkpoint: jsonb('checkpoint').$type<Record<string, unknown> | null>(),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total'),
    /** Units per second over the run so far. */
    rate: doublePrecision('rate'),
    result: jsonb('result').$type<Record<string, unknown> | null>(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** Not claimed before this time: scheduled work, and the backoff before a retry. */
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    /** Names the work ("message-send:<patient>:<date>"); a second enqueue with the same key gets the first job. */
    dedupeKey: text('dedupe_key'),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('jobs_status_created_idx').on(table.status, table.createdAt),
    index('jobs_kind_created_idx').on(table.kind, table.createdAt),
    index('jobs_status_run_at_idx').on(table.status, table.runAt),
    uniqueIndex('jobs_dedupe_key_idx').on(table.dedupeKey),
  ],
);

export const trials = pgTable('trials', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  startDate: date('start_date').notNull(),
  /** Follow-up of each participant, from their enrolment date. */
  weeks: integer('weeks').notNull(),
  /** Protocol facts shown on the trial page (objective, arms, eligibility, endpoints). */
  protocol: jsonb('protocol').$type<Record<string, unknown>>().notNull().default({}),
  /**
   * The statistical analysis plan, frozen once the first participant is enrolled: a trigger refuses any
   * change to it (or to its hash) while the trial has an enrolment. The page shows the text and its SHA-256.
   */
  analysisPlan: text('analysis_plan').notNull().default(''),
  analysisPlanSha256: text('analysis_plan_sha256'),
  /** Recruitment closes when this many are randomised, or on `recruitmentClosedOn`, whichever is first. */
  targetEnrolment: integer('target_enrolment'),
  recruitmentClosedOn: date('recruitment_closed_on'),
  /** Allocation concealment: the seed and the block sizes are never shown or sent to a browser. */
  randomisationSeed: integer('randomisation_seed')
    .notNull()
    .default(sql`(floor(random() * 2147483647))::integer`),
  blockSizes: integer('block_sizes')
    .array()
    .notNull()
    .default(sql`'{4,6}'::integer[]`),
  /** Synthetic (demo) trials are labelled "synthetic demo data" wherever shown. */
  synthetic: boolean('synthetic').notNull().default(false),
  createdBy: text('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const trialExclusionReasons = ['not-eligible', 'declined', 'other'] as const;

/**
 * Everyone assessed for eligibility (CONSORT "assessed"): excluded with a reason, or enrolled. One row a
 * patient and trial; assessing again replaces the outcome.
 */
export const trialScreenings = pgTable(
  'trial_screenings',
  {
    trialId: text('trial_id')
      .notNull()
      .references(() => trials.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    assessedOn: date('assessed_on').notNull(),
    assessedBy: text('assessed_by').references(() => authUsers.id, { onDelete: 'set null' }),
    outcome: text('outcome', { enum: ['enrolled', 'excluded'] }).notNull(),
    exclusionReason: text('exclusion_reason', { enum: trialExclusionReasons }),
    /** The criteria not met, or the clinician's words. */
    exclusionDetail: text('exclusion_detail'),
    /** The checklist as answered: criterion id → met. */
    eligibility: jsonb('eligibility').$type<Record<string, boolean>>().notNull().default({}),
  },
  (table) => [
    primaryKey({ columns: [table.trialId, table.patientId] }),
    index('trial_screenings_outcome_idx').on(table.trialId, table.outcome),
  ],
);

export const trialEnrolments = pgTable(
  'trial_enrolments',
  {
    trialId: text('trial_id')
      .notNull()
      .references(() => trials.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    arm: text('arm', { enum: ['control', 'intervention'] }).notNull(),
    stratum: text('stratum'),
    block: integer('block'),
    /** Place in the stratum's allocation sequence (0-based): the next enrolment in the stratum takes the next. */
    stratumPosition: integer('stratum_position'),
    enrolledOn: date('enrolled_on').notNull(),
    enrolledBy: text('enrolled_by').references(() => authUsers.id, { onDelete: 'set null' }),
    consentRecordedAt: timestamp('consent_recorded_at', { withTimezone: true }),
    /** The messaging programme before enrolment, restored when the participant withdraws. */
    previousProgramme: text('previous_programme', { enum: messagingProgrammes }),
    /** False when the participant never received the allocated intervention (CONSORT "did not receive"). */
    receivedAllocation: boolean('received_allocation').notNull().default(true),
    notReceivedReason: text('not_received_reason'),
    /** Stopped the allocated intervention but still followed up (CONSORT "discontinued intervention"). */
    discontinuedOn: date('discontinued_on'),
    discontinuedReason: text('discontinued_reason'),
    /** Withdrew from the trial (no further follow-up). */
    withdrawnOn: date('withdrawn_on'),
    withdrawalReason: text('withdrawal_reason'),
    lostToFollowUpOn: date('lost_to_follow_up_on'),
    lostToFollowUpReason: text('lost_to_follow_up_reason'),
  },
  (table) => [
    primaryKey({ columns: [table.trialId, table.patientId] }),
    index('trial_enrolments_arm_idx').on(table.trialId, table.arm),
    uniqueIndex('trial_enrolments_stratum_position_idx').on(table.trialId, table.stratum, table.stratumPosition),
  ],
);

/**
 * A WhatsApp "Export chat" file a user chose to keep (whatsapp-analysis page, decision 033). Uploads are
 * parsed and analysed in the browser and never reach the server unless the user presses Save; then the parsed
 * conversation is kept here for its owner alone (it names people and holds what they wrote), until they delete it.
 */
export const chatExports = pgTable(
  'chat_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerUserId: text('owner_user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    /** As the uploader named it; shown only to its owner, never logged. */
    fileName: text('file_name').notNull(),
    /** The IANA zone the export's wall-clock times were read in, and the date order used. */
    timeZone: text('time_zone').notNull(),
    dateOrder: text('date_order', { enum: ['dmy', 'mdy', 'ymd'] }).notNull(),
    messageCount: integer('message_count').notNull(),
    participants: text('participants').array().notNull(),
    /** The parsed messages (engine/chat-export ChatMessage[]): timestamp, author, text, kind. */
    messages: jsonb('messages').$type<ChatMessage[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('chat_exports_owner_idx').on(table.ownerUserId, table.createdAt)],
);

/**
 * Survey definitions (docs/decisions/041): every version kept. Version 1 of each survey is seeded from
 * src/engine/surveys/definitions.ts; an admin's edit adds the next version (audited), never changes one.
 */
export const surveyDefinitions = pgTable(
  'survey_definitions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Which survey ('lifestyle', 'adherence-barriers'); versions share it. */
    surveyKey: text('survey_key').notNull(),
    version: integer('version').notNull(),
    definition: jsonb('definition').$type<SurveyDefinition>().notNull(),
    /** What changed from the version before, in the editor's words (null for a seeded version). */
    changeNote: text('change_note'),
    createdBy: text('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('survey_definitions_key_version_idx').on(table.surveyKey, table.version)],
);

/**
 * One patient's response to one version of a survey, saved answer by answer so it can be resumed. `summary`
 * holds one category per measure (IPAQ level, AUDIT-C screen, each item, the top persona) for the cohort
 * distribution; `result` the full result shown to the patient.
 */
export const surveyResponses = pgTable(
  'survey_responses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    definitionId: uuid('definition_id')
      .notNull()
      .references(() => surveyDefinitions.id, { onDelete: 'restrict' }),
    surveyKey: text('survey_key').notNull(),
    channel: text('channel').notNull().default('web'),
    answers: jsonb('answers').$type<SurveyAnswers>().notNull().default({}),
    /** Question ids in the order they were asked (the adaptive order differs per patient). */
    askedOrder: text('asked_order').array().notNull().default([]),
    summary: jsonb('summary').$type<Record<string, string>>(),
    /** Posterior probability per persona after the last answer. */
    posterior: jsonb('posterior').$type<Record<string, number>>(),
    /**
     * Bits of persona entropy each answered choice question removed, in the order asked (`responseInformation`),
     * written with the answers, so survey-evolution sums them in SQL (decision 047 addendum). Null on a response
     * stored before it existed until the start-up backfill fills it.
     */
    informationBits: jsonb('information_bits').$type<Record<string, number>>(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    index('survey_responses_patient_idx').on(table.patientId, table.surveyKey, table.startedAt),
    index('survey_responses_completed_idx').on(table.surveyKey, table.completedAt),
    // The few responses still without their information figures, which survey-evolution works out itself.
    index('survey_responses_information_missing_idx')
      .on(table.definitionId)
      .where(sql`${table.informationBits} is null`),
  ],
);

/**
 * Each patient's latest persona posterior from a survey whose answers carry persona information (issue 17
 * item 6, docs/decisions/047): one row per patient, replaced after every such answer, read by the daily loop
 * into the decision context the message policy sees.
 */
export const patientPersonaPosteriors = pgTable('patient_persona_posteriors', {
  patientId: uuid('patient_id')
    .primaryKey()
    .references(() => patients.id, { onDelete: 'cascade' }),
  /** Probability per persona (the personas of src/engine/simulation/personas.ts), summing to 1. */
  posterior: jsonb('posterior').$type<Record<string, number>>().notNull(),
  /** The response the posterior came from; kept if that response is removed, since the patient told us. */
  surveyResponseId: uuid('survey_response_id').references(() => surveyResponses.id, { onDelete: 'set null' }),
  /** Answers behind it. */
  answers: integer('answers').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A survey by message (issue 17 item 4, docs/decisions/051): one row per message of at most 3 questions sent
 * for a survey response (the response is shared with the browser: answers from either land in it). The row
 * is the claim on sending (one open row per response) and the state of its answer: awaiting a reply, answered,
 * one clarification sent (`clarified_reply_id`), or kept for a person (`held_reply_id`).
 */
export const surveyMessageChunks = pgTable(
  'survey_message_chunks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    surveyResponseId: uuid('survey_response_id')
      .notNull()
      .references(() => surveyResponses.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['whatsapp', 'sms'] }).notNull(),
    /**
     * questions: the message asks `questionIds`; invitation: the WhatsApp survey-invitation template sent instead
     * because the 24-hour window was closed (decision 056) — its "Start" tap answers it and the questions follow.
     */
    kind: text('kind', { enum: ['questions', 'invitation'] })
      .notNull()
      .default('questions'),
    /** The questions this message asks, in order (an invitation: the ones it was sent in place of). */
    questionIds: text('question_ids').array().notNull(),
    /**
     * sending → awaiting → answered | held; not-sent (with the reason) when no channel could carry it; expired when
     * a new offer found it unanswered after 24 hours or its message failed; declined when the patient tapped an
     * invitation's "Not now".
     */
    status: text('status', { enum: ['sending', 'awaiting', 'answered', 'held', 'not-sent', 'expired', 'declined'] }).notNull(),
    statusReason: text('status_reason'),
    /** The outbound message with the questions, and the clarification sent after a first unreadable reply. */
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    clarificationMessageId: uuid('clarification_message_id').references(() => messages.id, { onDelete: 'set null' }),
    /** The inbound replies: the first we could not read, the one that answered, the one kept for a person. */
    clarifiedReplyId: uuid('clarified_reply_id').references(() => messages.id, { onDelete: 'set null' }),
    answeredReplyId: uuid('answered_reply_id').references(() => messages.id, { onDelete: 'set null' }),
    heldReplyId: uuid('held_reply_id').references(() => messages.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    // One open message per response: a retried or doubled job finds it instead of sending a second.
    uniqueIndex('survey_message_chunks_open_idx')
      .on(table.surveyResponseId)
      .where(sql`${table.status} in ('sending', 'awaiting')`),
    index('survey_message_chunks_patient_idx').on(table.patientId, table.status),
  ],
);

/**
 * Versions of the non-adherence risk model (issue 18, decision 046): what each was trained on, its weights
 * and its evaluation on the later weeks, written by the `risk-train` job so pages read a stored evaluation
 * instead of training on a page view. `status` follows the job: running until the evaluation is stored.
 */
export const riskModels = pgTable(
  'risk_models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    version: integer('version').notNull().unique(),
    status: text('status', { enum: ['running', 'ready', 'failed'] })
      .notNull()
      .default('running'),
    /** `simulation` (a freshly simulated cohort, labelled simulated) or `database` (the stored records). */
    source: text('source', { enum: ['simulation', 'database'] }).notNull(),
    seed: integer('seed').notNull(),
    patients: integer('patients').notNull(),
    weeks: integer('weeks').notNull(),
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    /** The trained network and logistic regression (weights and standardisation). */
    parameters: jsonb('parameters').$type<Record<string, unknown> | null>(),
    evaluation: jsonb('evaluation').$type<Record<string, unknown> | null>(),
    targeting: jsonb('targeting').$type<Record<string, unknown> | null>(),
    createdBy: text('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [index('risk_models_status_version_idx').on(table.status, table.version)],
);

/** Each patient's latest risk from one model version, with its top reasons in words. */
export const riskScores = pgTable(
  'risk_scores',
  {
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    modelId: uuid('model_id')
      .notNull()
      .references(() => riskModels.id, { onDelete: 'cascade' }),
    /** The week boundary the features were computed at (data before this day only). */
    scoredOn: date('scored_on').notNull(),
    /** The network's probability of adherence < 0.8 over the next 7 days. */
    risk: doublePrecision('risk').notNull(),
    reasons: jsonb('reasons').$type<{ feature: string; words: string; weight: number }[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.patientId, table.modelId] }), index('risk_scores_model_risk_idx').on(table.modelId, table.risk)],
);

/** A clinician's record that they contacted a patient from the risk worklist (also written to the audit log). */
export const riskContacts = pgTable(
  'risk_contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    contactedBy: text('contacted_by').references(() => authUsers.id, { onDelete: 'set null' }),
    contactedAt: timestamp('contacted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('risk_contacts_patient_idx').on(table.patientId, table.contactedAt)],
);

/**
 * The portal's dose-timing heat map pre-aggregated (docs/decisions/039): scheduled doses per UTC day of
 * scheduled_at, product, patient region (as it was at the refresh), and local weekday (0 = Monday) and hour in
 * the patient's time zone. No patient column: counts only. Rebuilt by the 'portal.refresh-aggregates' job.
 */
export const portalDoseSlotsDaily = pgTable(
  'portal_dose_slots_daily',
  {
    day: date('day').notNull(),
    // No foreign key: derived counts, rebuilt by the job; a removed product's rows are never read (views ask for
    // products in the catalogue) and go at the next refresh. So an import's undo need not check these tables.
    productId: text('product_id').notNull(),
    region: text('region'),
    weekday: integer('weekday').notNull(),
    hour: integer('hour').notNull(),
    confirmed: integer('confirmed').notNull(),
    missed: integer('missed').notNull(),
  },
  (table) => [index('portal_dose_slots_daily_day_product_idx').on(table.day, table.productId)],
);

/**
 * The same summed per calendar month (`month` = its first day), so a year's view reads whole months from here
 * and only the period's partial months from the daily table (the daily rows barely compress: a product's doses
 * of a day fall in few hours).
 */
export const portalDoseSlotsMonthly = pgTable(
  'portal_dose_slots_monthly',
  {
    month: date('month').notNull(),
    // No foreign key: derived counts, rebuilt by the job; a removed product's rows are never read (views ask for
    // products in the catalogue) and go at the next refresh. So an import's undo need not check these tables.
    productId: text('product_id').notNull(),
    region: text('region'),
    weekday: integer('weekday').notNull(),
    hour: integer('hour').notNull(),
    confirmed: integer('confirmed').notNull(),
    missed: integer('missed').notNull(),
  },
  (table) => [index('portal_dose_slots_monthly_month_product_idx').on(table.month, table.productId)],
);

/**
 * How far the portal's pre-aggregates may be read (one row, key 'dose-slots'): `throughDay` is the first day
 * NOT aggregated (the refresh's UTC day); `dirtyFrom` the earliest day whose dose events (or whose patients'
 * region or time zone) changed since the refresh — kept by triggers (hand-written SQL in the migration), so
 * a view reads the aggregate only before min(throughDay, dirtyFrom) and the rest from dose_events.
 * `version` grows on every change that moves `dirtyFrom`, so a refresh is queued once per such change.
 */
export const portalAggregateState = pgTable('portal_aggregate_state', {
  key: text('key').primaryKey(),
  throughDay: date('through_day'),
  dirtyFrom: date('dirty_from'),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  refreshedVersion: bigint('refreshed_version', { mode: 'number' }).notNull().default(0),
  refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
  /**
   * When the dose-slot triggers began listing changes (decision 060): set, under an advisory lock, just before the
   * first build starts; null before it, when the triggers list nothing (seeding stays fast).
   */
  listingSince: timestamp('listing_since', { withTimezone: true }),
});

/**
 * The periods the per-patient pre-aggregate is kept for (docs/decisions/050): a view of a period not built yet
 * registers it here and is computed per request until the refresh job has built it; periods unused for a week
 * are dropped by the job. `builtAt` null: registered, not built.
 */
export const portalSummaryPeriods = pgTable('portal_summary_periods', {
  periodKey: text('period_key').primaryKey(),
  start: date('start').notNull(),
  end: date('end').notNull(),
  builtAt: timestamp('built_at', { withTimezone: true }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
  /** The company groups (`g:` product sets, portal_summary_groups) the period's rows were built with (decision 064). */
  groupLevels: text('group_levels')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
});

/**
 * Product sets of two or more whole companies (a manufacturer who belongs to several), kept in the per-patient
 * pre-aggregate as level `g:<company ids, sorted, joined by +>` (docs/decisions/064): registered by the refresh from
 * manufacturers' memberships and by a view of a group not built yet.
 */
export const portalSummaryGroups = pgTable('portal_summary_groups', {
  levelKey: text('level_key').primaryKey(),
  companyIds: text('company_ids').array().notNull(),
  registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The per-patient pre-aggregate (docs/decisions/050): one row per period, product set and patient with what the
 * engine makes of the patient's fills of that set (month indices of the period on therapy, adherent, starting,
 * stopping; persistence subjects; refill-gap counts; the period cohort's PDC bin and products). A product set is
 * every product (`*`), one company's (`c:<id>`) or one product (`p:<id>`), so a view is sums over rows, one per
 * patient, summed per region into portal_summary_cells.
 * No foreign key to patients (derived rows: an import's undo must not be blocked by them): patients whose fills
 * changed are listed in portal_dirty_patients, computed on read, and their rows replaced by the next refresh.
 */
export const portalPatientSummaries = pgTable(
  'portal_patient_summaries',
  {
    periodKey: text('period_key')
      .notNull()
      .references(() => portalSummaryPeriods.periodKey, { onDelete: 'cascade' }),
    levelKey: text('level_key').notNull(),
    patientId: uuid('patient_id').notNull(),
    member: boolean('member').notNull(),
    adherent: boolean('adherent').notNull(),
    pdcBin: smallint('pdc_bin').notNull(),
    productIds: text('product_ids').array().notNull(),
    onMonths: smallint('on_months').array().notNull(),
    adherentMonths: smallint('adherent_months').array().notNull(),
    startMonths: smallint('start_months').array().notNull(),
    stopMonths: smallint('stop_months').array().notNull(),
    gapCounts: integer('gap_counts').array().notNull(),
    subjectTimes: integer('subject_times').array().notNull(),
    subjectEvents: boolean('subject_events').array().notNull(),
    // The patient's demographics when the row was written: the cells below are grouped by them, and a listed
    // (dirty) patient's row is taken out of the cells under these, then added back under the current ones.
    region: text('region').notNull(),
    ageBand: text('age_band'),
    sex: text('sex'),
    conditions: text('conditions').array().notNull(),
    // The company and ATC-class keys of the cohort member's products when written (a removed product leaves no row to join).
    companyKeys: text('company_keys').array().notNull(),
    classKeys: text('class_keys').array().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.periodKey, table.levelKey, table.patientId] }),
    index('portal_patient_summaries_patient_idx').on(table.patientId),
  ],
);

/**
 * The per-patient rows summed per period, product set and region (docs/decisions/050), rewritten with them by
 * the refresh: `part` names the figure (on, adherent, start, stop by month index; gap by bin; subject by time;
 * pdc by bin; a breakdown by its key), `n` the patients (refills, subjects with an event) and `a` the adherent
 * ones (subjects censored). A view sums a few thousand of these instead of a row per patient.
 */
export const portalSummaryCells = pgTable(
  'portal_summary_cells',
  {
    periodKey: text('period_key')
      .notNull()
      .references(() => portalSummaryPeriods.periodKey, { onDelete: 'cascade' }),
    levelKey: text('level_key').notNull(),
    region: text('region').notNull(),
    part: text('part').notNull(),
    key: text('key').notNull(),
    n: integer('n').notNull(),
    a: integer('a').notNull(),
  },
  (table) => [index('portal_summary_cells_level_idx').on(table.periodKey, table.levelKey, table.region)],
);

/**
 * Patients whose dispensings (or region, age band, sex or conditions) changed since the per-patient pre-aggregate
 * was last refreshed for them, written by triggers on dispensings and patients (hand-written SQL in the migration) with a generation from a sequence. Views compute
 * these patients per request; the refresh recomputes them and deletes only the entries whose generation it read,
 * so a change committed while it runs stays listed (docs/decisions/050).
 */
export const portalDirtyPatients = pgTable('portal_dirty_patients', {
  patientId: uuid('patient_id').primaryKey(),
  generation: bigint('generation', { mode: 'number' }).notNull(),
});

/**
 * Dose events changed since the dose-slot pre-aggregate was rebuilt (docs/decisions/057, closing decision 039's
 * race): one row per patient and UTC day, written by triggers with a generation from a sequence. A day at or after
 * the earliest listed day is read from dose_events; the refresh deletes only the rows whose generation it read
 * before it aggregated, so a change committed while it runs stays listed (as portal_dirty_patients, decision 050).
 */
export const portalDoseSlotChanges = pgTable(
  'portal_dose_slot_changes',
  {
    patientId: uuid('patient_id').notNull(),
    day: date('day').notNull(),
    generation: bigint('generation', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.patientId, table.day] }), index('portal_dose_slot_changes_day_idx').on(table.day)],
);

/**
 * The demand forecast's pre-aggregate (docs/decisions/057): one per product set (`*` every dispensing, `c:<id>`
 * one company's products, `p:<id>` one product) and as-of day (the set's latest fill). `productIds` are the
 * set's products when built (null for `*`): a view whose set differs (a product moved company) does not use it.
 * `builtAt` null: registered, not built. The refresh job registers each set's current as-of day itself.
 */
export const portalForecastBases = pgTable('portal_forecast_bases', {
  baseKey: text('base_key').primaryKey(),
  setKey: text('set_key').notNull(),
  asOf: date('as_of').notNull(),
  productIds: text('product_ids').array(),
  builtAt: timestamp('built_at', { withTimezone: true }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
});

/**
 * One row per as-of day and patient (docs/decisions/057): the forecast cells of each of the patient's products'
 * histories (src/engine/forecast/forecast-cells.ts) as {product: [[name, n], …]}, shared by every base of that
 * as-of day, so a listed (dirty) patient's part of any set's cells can be taken out exactly. No foreign key to
 * patients, as portal_patient_summaries; rows of an as-of day without a base are deleted by the refresh.
 */
export const portalForecastRows = pgTable(
  'portal_forecast_rows',
  {
    asOf: date('as_of').notNull(),
    patientId: uuid('patient_id').notNull(),
    cells: jsonb('cells').notNull(),
  },
  (table) => [primaryKey({ columns: [table.asOf, table.patientId] }), index('portal_forecast_rows_patient_idx').on(table.patientId)],
);

/** The rows' cells summed per base (docs/decisions/057), written in the refresh's transaction with the rows. */
export const portalForecastCells = pgTable(
  'portal_forecast_cells',
  {
    baseKey: text('base_key')
      .notNull()
      .references(() => portalForecastBases.baseKey, { onDelete: 'cascade' }),
    part: text('part').notNull(),
    key: text('key').notNull(),
    n: integer('n').notNull(),
  },
  (table) => [primaryKey({ columns: [table.baseKey, table.part, table.key] })],
);

/**
 * Daily message summaries (docs/decisions/045): the messages of one UTC day counted per channel, direction,
 * category, the patient's persona and organisation, and (for demo replies, which carry no engine reading)
 * the reply text, with the delivered, read, failed, live STOP and replied counts the messaging overview sums.
 * No patient is named: the whole-population views read these few thousand rows instead of a year of messages.
 * A day is recomputed whole when it is stale (message_summary_stale_days); nothing else writes here.
 */
export const messageDaySummaries = pgTable(
  'message_day_summaries',
  {
    day: integer('day').notNull(),
    channel: text('channel').notNull(),
    direction: text('direction').notNull(),
    category: text('category').notNull(),
    persona: text('persona'),
    organisationId: text('organisation_id'),
    replyText: text('reply_text'),
    messages: integer('messages').notNull(),
    delivered: integer('delivered').notNull(),
    read: integer('read').notNull(),
    failed: integer('failed').notNull(),
    liveStops: integer('live_stops').notNull(),
    replied: integer('replied').notNull(),
  },
  (table) => [index('message_day_summaries_day_idx').on(table.day, table.channel)],
);

/** The provider errors of one UTC day's failed outbound messages (docs/decisions/045), beside the day's summary. */
export const messageDayFailureReasons = pgTable(
  'message_day_failure_reasons',
  {
    day: integer('day').notNull(),
    channel: text('channel').notNull(),
    persona: text('persona'),
    organisationId: text('organisation_id'),
    code: text('code'),
    title: text('title'),
    messages: integer('messages').notNull(),
  },
  (table) => [index('message_day_failure_reasons_day_idx').on(table.day)],
);

/** A bit string (PostgreSQL `bit varying`), as its text of 0s and 1s. */
const bitVarying = customType<{ data: string }>({ dataType: () => 'bit varying' });

/**
 * A small number per patient (docs/decisions/045): the patient's bit in message_day_patient_sets. Assigned
 * when the summaries are brought up to date, never reused. No foreign key on purpose: it holds nothing about
 * the patient, must not stop an import's undo from removing one, and an ordinal left by a removed patient
 * is never in a viewer's mask.
 */
export const messageSummaryPatients = pgTable('message_summary_patients', {
  patientId: uuid('patient_id').primaryKey(),
  ordinal: integer('ordinal').notNull().unique(),
});

/**
 * Which patients were messaged per UTC day, channel, direction and category ('*': any category), as a bitmap
 * over message_summary_patients.ordinal (docs/decisions/045): OR-ed over a group's days and AND-ed with the
 * viewer's patients, its bit count is the group's distinct patients — exact, for small-cell suppression.
 */
export const messageDayPatientSets = pgTable(
  'message_day_patient_sets',
  {
    day: integer('day').notNull(),
    channel: text('channel').notNull(),
    direction: text('direction').notNull(),
    category: text('category').notNull(),
    patients: bitVarying('patients').notNull(),
  },
  (table) => [index('message_day_patient_sets_day_idx').on(table.day)],
);

/**
 * UTC days whose summaries no longer match the messages (docs/decisions/045): triggers on messages and
 * patients add a day when a message of it (or a reply or later message that changes whether it was answered)
 * is written, changed or removed; the next summary read recomputes those days and removes them.
 */
export const messageSummaryStaleDays = pgTable('message_summary_stale_days', {
  day: integer('day').primaryKey(),
});

/**
 * One narrow row per message (docs/decisions/049): what the WhatsApp analysis and the data-quality checks
 * need to know about a message that depends on other rows — when it was answered (the reply rule), whether a
 * reply was matched to a message, when it was first delivered, and the first dose confirmation after it — so
 * a view reads these instead of sorting a year of messages and their patients' doses. Facts of a UTC day are
 * recomputed whole when the day is stale (message_fact_stale_days); nothing else writes here. Nothing about
 * the patient besides the id (persona, organisation and time zone are joined at read). No foreign key on
 * purpose, as for message_summary_patients: the rows are derived and go with their day's next refresh; a key
 * would make each refresh pay a reference check per message and stop an import's undo from removing a patient.
 */
export const messageFacts = pgTable(
  'message_facts',
  {
    messageId: uuid('message_id').primaryKey(),
    /** The UTC day of sent_at (days since 1970-01-01). */
    day: integer('day').notNull(),
    patientId: uuid('patient_id').notNull(),
    channel: text('channel').notNull(),
    direction: text('direction').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    templateId: text('template_id'),
    /** Outbound: the status is final (delivered, read, failed, undelivered). */
    finalStatus: boolean('final_status').notNull(),
    /** Outbound: the status history holds a "delivered". */
    delivered: boolean('delivered').notNull(),
    /** Outbound: seconds from sending to the first "delivered" of the history. */
    deliverySeconds: doublePrecision('delivery_seconds'),
    /** Outbound: when the WhatsApp analysis's reply rule finds it answered. */
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    /** Outbound with a template: the first 'taken' dose confirmation of the patient at or after sending, if within 24 h. */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** That dose's scheduled time (the least of doses confirmed at the same instant). */
    confirmedScheduledAt: timestamp('confirmed_scheduled_at', { withTimezone: true }),
    /** Inbound: answers a message we hold (the data-quality rule). */
    matched: boolean('matched'),
    /** Inbound: md5 of the text and the stored reading, the key its intent is read under. */
    replyKey: text('reply_key'),
  },
  (table) => [index('message_facts_day_idx').on(table.day), index('message_facts_channel_sent_idx').on(table.channel, table.sentAt)],
);

/** UTC days whose message facts no longer match the messages or the dose confirmations (docs/decisions/049). */
export const messageFactStaleDays = pgTable('message_fact_stale_days', {
  day: integer('day').primaryKey(),
});

/**
 * The portal's missed-dose replies pre-aggregated (docs/decisions/061): inbound replies counted per patient, UTC
 * day and distinct reply (its key: md5 of the text and the stored reading), and the same per calendar month. A view
 * sums whole months from the monthly table and the period's partial months from the daily one, instead of
 * scanning a year of messages; the reply's reason is still read by the engine at view time, once per distinct
 * reply (portal_reply_texts), so a classifier change applies at once. No foreign keys: derived rows, removed at the
 * patient's next refresh (as decisions 049 and 050).
 */
export const portalReplyDays = pgTable(
  'portal_reply_days',
  {
    patientId: uuid('patient_id').notNull(),
    /** UTC day of sent_at (days since 1970-01-01). */
    day: integer('day').notNull(),
    replyKey: text('reply_key').notNull(),
    replies: integer('replies').notNull(),
  },
  (table) => [primaryKey({ columns: [table.patientId, table.day, table.replyKey] }), index('portal_reply_days_day_idx').on(table.day)],
);

export const portalReplyMonths = pgTable(
  'portal_reply_months',
  {
    patientId: uuid('patient_id').notNull(),
    /** The UTC day number of the month's first day. */
    month: integer('month').notNull(),
    replyKey: text('reply_key').notNull(),
    replies: integer('replies').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.patientId, table.month, table.replyKey] }),
    index('portal_reply_months_month_idx').on(table.month),
  ],
);

/** Each distinct reply's text and stored reading, under the key the counts use (read by the engine at view time). */
export const portalReplyTexts = pgTable('portal_reply_texts', {
  replyKey: text('reply_key').primaryKey(),
  replyText: text('reply_text'),
  inboundReading: jsonb('inbound_reading').$type<InboundReading>(),
});

/**
 * Patients whose inbound messages changed since their reply counts were written, listed by triggers on messages
 * (hand-written SQL in the migration) with a generation from portal_dirty_generation. Views read these patients'
 * replies from messages; the refresh rewrites their counts and deletes only the entries whose generation it read
 * (the pattern of portal_dirty_patients, decision 050). The migration lists every patient with replies, so the
 * counts start empty and exact.
 */
export const portalReplyDirtyPatients = pgTable('portal_reply_dirty_patients', {
  patientId: uuid('patient_id').primaryKey(),
  generation: bigint('generation', { mode: 'number' }).notNull(),
});
