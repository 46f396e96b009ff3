import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { serialPrimaryKey, updatedAt } from './columns';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
/** A Postgres transaction id (64-bit, never wraps), kept as its decimal text. */
export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The cache of workflow executions. Columns hold what people filter, sort and search on; the
 * full service result is kept as JSONB. Values from the service are stored as text, never as
 * enums, so an unknown status, decision type or label is kept and shown.
 */
export const executions = pgTable(
  'executions',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    status: text('status').notNull(),
    /** Order of `status` (INITIATED < ACQUIRED < terminal); the cache never moves it backwards. */
    statusRank: smallint('status_rank').notNull().default(0),
    decisionType: text('decision_type'),
    decisionLabel: text('decision_label'),
    riskScore: integer('risk_score'),
    definitionKey: text('definition_key'),
    originalDefinitionKey: text('original_definition_key'),
    userReference: text('user_reference'),
    customerInternalReference: text('customer_internal_reference'),
    reportingCriteria: text('reporting_criteria'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    wipedOutAt: timestamp('wiped_out_at', { withTimezone: true }),
    /** Set when the service answered 404 for an execution we had: deleted at the service. */
    goneAt: timestamp('gone_at', { withTimezone: true }),
    // From extraction (personal data: masked in the UI, purged by retention and wipes).
    issuingCountry: text('issuing_country'),
    documentType: text('document_type'),
    documentNumber: text('document_number'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    dateOfBirth: text('date_of_birth'),
    /** sha256 of country|type|number|first|last|dob: the service's "same identity document". */
    documentKey: text('document_key'),
    /** Lower-cased names, references and document number, for trigram search. */
    /** Lower-cased references (not personal): found by any part. */
    searchText: text('search_text'),
    /** Whole normalised name words and document number (lib/pii/search-tokens.ts): found only whole. */
    searchTokens: text('search_tokens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** `capability:DECISION` and `capability:label:LABEL` tags, for the list's capability filter. */
    capabilityTags: text('capability_tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    feedbackStatus: text('feedback_status'),
    feedbackReason: text('feedback_reason'),
    feedbackProvidedAt: timestamp('feedback_provided_at', { withTimezone: true }),
    /** Local delivery state of the latest feedback: pending, delivered, failed, awaiting_approval. */
    feedbackDelivery: text('feedback_delivery'),
    hasPersonalData: boolean('has_personal_data').notNull().default(true),
    personalDataPurgedAt: timestamp('personal_data_purged_at', { withTimezone: true }),
    result: jsonb('result').$type<Record<string, unknown>>(),
    rawSteps: jsonb('raw_steps').$type<Record<string, unknown>>(),
    rawRules: jsonb('raw_rules').$type<Record<string, unknown>>(),
    /** When the request that produced the stored result was sent; older responses never win. */
    fetchedAt: timestamp('fetched_at', { withTimezone: true }),
    /** sha256 of the stored result, steps and rules: an identical re-fetch writes nothing. */
    contentHash: text('content_hash'),
    /** Set when a callback or poll says there is newer data than the stored result. */
    staleSince: timestamp('stale_since', { withTimezone: true }),
    insertedAt: timestamp('inserted_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
    /**
     * The transaction that last changed `updated_at` (set by a trigger, migration 0015): the read
     * API's change feed orders by it (lib/db/change-feed.ts). Rows older than the column hold 0.
     */
    changeTxid: xid8('change_txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /**
     * The executions list's equality filters as one small array computed by Postgres from the
     * columns above (`decision=REJECTED`, `country=DEU`, `feedback=none`, `delivery=open`, ...),
     * under one GIN index: any combination of them is one index lookup (GIN intersects its
     * posting lists) instead of an AND of several large bitmaps, and testing a row is one cheap
     * array check. Stored, not an expression index: a plan that filters rows would otherwise
     * rebuild the array for every row. Capability tags keep their own column and index.
     * Measured with `npm run bench:list`.
     */
    facets: text('facets')
      .array()
      .generatedAlwaysAs(
        sql`array_remove(array['decision=' || decision_type, 'status=' || status, 'country=' || issuing_country, 'doctype=' || document_type, 'definition=' || definition_key, 'criteria=' || reporting_criteria, 'feedback=' || coalesce(nullif(feedback_status, 'NA'), 'none'), case when feedback_delivery in ('pending', 'failed', 'awaiting_approval') then 'delivery=open' end], null)`,
      ),
  },
  (t) => [
    index('executions_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('executions_completed_idx').on(t.completedAt.desc().nullsLast(), t.id.desc()),
    // Migration 0036 builds it with INCLUDE (created_at), which the schema cannot say: a created
    // range by risk reads its page's ids from it alone (lib/executions/where.ts `coveredBySortIndex`).
    index('executions_risk_created_idx').on(t.riskScore.desc().nullsLast(), t.id.desc()),
    index('executions_decision_created_idx').on(t.decisionType, t.createdAt.desc(), t.id.desc()),
    index('executions_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('executions_country_created_idx').on(t.issuingCountry, t.createdAt.desc(), t.id.desc()),
    index('executions_feedback_created_idx').on(t.feedbackStatus, t.createdAt.desc(), t.id.desc()),
    // Migration 0035: the walk of a combination whose rarest value is a document type.
    index('executions_doctype_created_idx').on(t.documentType, t.createdAt.desc(), t.id.desc()),
    // Feedback not yet delivered, newest first: the list walks it in order and stops after a page
    // (delivered feedback, almost all of it, is not in it; migration 0030).
    index('executions_delivery_open_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`${t.feedbackDelivery} in ('pending', 'failed', 'awaiting_approval')`),
    index('executions_account_idx').on(t.accountId, t.createdAt.desc()),
    index('executions_document_key_idx')
      .on(t.documentKey)
      .where(sql`${t.documentKey} is not null`),
    index('executions_document_number_idx')
      .on(t.documentNumber)
      .where(sql`${t.documentNumber} is not null`),
    index('executions_cir_idx').on(t.customerInternalReference),
    index('executions_user_ref_idx').on(t.userReference),
    index('executions_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // Facets, capability tags and search tokens in one GIN index: a scan of it intersects any
    // combination of their conditions at once, skipping through the frequent ones (migration 0030).
    index('executions_filters_idx').using('gin', t.facets, t.capabilityTags, t.searchTokens),
    index('executions_stale_idx')
      .on(t.staleSince)
      .where(sql`${t.staleSince} is not null`),
    // The review queue "this decision, riskiest first" (the list's decision filter + risk sort).
    index('executions_decision_risk_idx').on(t.decisionType, t.riskScore.desc().nullsLast(), t.id.desc()),
    // The same for one country (a market's review queue): migration 0033.
    index('executions_country_decision_risk_idx').on(
      t.issuingCountry,
      t.decisionType,
      t.riskScore.desc().nullsLast(),
      t.id.desc(),
    ),
    // The read API's change feed (lib/executions/changes.ts): keyset order by the changing
    // transaction; updated_at for its `since`.
    index('executions_change_idx').on(t.changeTxid, t.id),
    index('executions_updated_idx').on(t.updatedAt, t.id),
  ],
);

/**
 * Each search token's executions, newest first (migration 0034): the list walks one token's rows
 * in its default order instead of gathering every match from the GIN index and sorting them.
 * Written only by triggers on `executions`, never by the app, so it cannot drift from the tokens.
 */
export const executionSearchPostings = pgTable(
  'execution_search_postings',
  {
    token: text('token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    executionId: uuid('execution_id').notNull(),
  },
  (t) => [
    uniqueIndex('execution_search_postings_idx').on(
      t.token,
      t.createdAt.desc().nullsLast(),
      t.executionId.desc().nullsLast(),
    ),
  ],
);

/** A row that belongs to one execution (its parts, steps, links, notes, reviews): deleted with it. */
export const ownerExecutionId = () =>
  uuid('execution_id')
    .notNull()
    .references(() => executions.id, { onDelete: 'cascade' });

export const credentials = pgTable(
  'credentials',
  {
    id: uuid('id').primaryKey(),
    executionId: ownerExecutionId(),
    category: text('category'),
    label: text('label'),
    clientIp: text('client_ip'),
    parts: jsonb('parts').$type<Array<{ classifier?: string; captureType?: string }>>(),
    raw: jsonb('raw').$type<Record<string, unknown>>(),
  },
  (t) => [index('credentials_execution_idx').on(t.executionId)],
);

/** Image bytes fetched from the service (R1) on first view; purged with personal data. */
export const partImages = pgTable(
  'part_images',
  {
    credentialId: uuid('credential_id').notNull(),
    classifier: text('classifier').notNull(),
    executionId: ownerExecutionId(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.credentialId, t.classifier] }),
    index('part_images_execution_idx').on(t.executionId),
  ],
);

/** One row per capability entry of a result. */
export const capabilityEntries = pgTable(
  'capability_entries',
  {
    id: serialPrimaryKey(),
    executionId: ownerExecutionId(),
    capability: text('capability').notNull(),
    /** The entry's own id; not always a UUID (bankCheck, binCheck). */
    entryId: text('entry_id').notNull(),
    position: smallint('position').notNull(),
    decisionType: text('decision_type'),
    decisionLabel: text('decision_label'),
    credentialIds: text('credential_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    data: jsonb('data'),
    raw: jsonb('raw').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    uniqueIndex('capability_entries_key').on(t.executionId, t.capability, t.position),
    index('capability_entries_cap_decision_idx').on(t.capability, t.decisionType, t.decisionLabel),
  ],
);

export const steps = pgTable(
  'steps',
  {
    executionId: ownerExecutionId(),
    position: smallint('position').notNull(),
    stepId: integer('step_id'),
    name: text('name'),
    decisionType: text('decision_type'),
    decisionLabel: text('decision_label'),
    capabilityIds: text('capability_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    raw: jsonb('raw').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.executionId, t.position] })],
);

export const ruleExecutions = pgTable(
  'rule_executions',
  {
    id: text('id').primaryKey(),
    executionId: ownerExecutionId(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('rule_executions_execution_idx').on(t.executionId)],
);

/** Each rule of each ruleset of a rule execution, matched or not, with its score. */
export const ruleResults = pgTable(
  'rule_results',
  {
    id: serialPrimaryKey(),
    executionId: ownerExecutionId(),
    ruleExecutionId: text('rule_execution_id').notNull(),
    rulesetId: text('ruleset_id').notNull(),
    rulesetName: text('ruleset_name'),
    rulesetVersion: integer('ruleset_version'),
    rulesetScore: real('ruleset_score'),
    ruleId: text('rule_id').notNull(),
    ruleName: text('rule_name'),
    ruleVersion: integer('rule_version'),
    score: real('score'),
    matched: boolean('matched').notNull(),
  },
  (t) => [
    index('rule_results_execution_idx').on(t.executionId),
    index('rule_results_rule_idx').on(t.ruleId, t.matched),
  ],
);

/** Links between cached executions: same document, same account, same face. */
export const executionLinks = pgTable(
  'execution_links',
  {
    executionId: ownerExecutionId(),
    linkedId: uuid('linked_id').notNull(),
    kind: text('kind').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.executionId, t.linkedId, t.kind] }),
    index('execution_links_linked_idx').on(t.linkedId),
  ],
);

/** Every callback received, stored before anything else happens. */
export const callbacks = pgTable(
  'callbacks',
  {
    id: serialPrimaryKey(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    executionId: uuid('execution_id').notNull(),
    accountId: uuid('account_id'),
    status: text('status'),
    callbackSentAt: timestamp('callback_sent_at', { withTimezone: true }),
    sourceIp: text('source_ip'),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    error: text('error'),
    /**
     * When a worker turned this callback into work (stale mark, fetch job, or an error): null while
     * it waits in the inbox. The receiver only inserts; lib/sync/callback-inbox.ts drains in batches.
     */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    /** A worker's claim on an undispatched callback; another worker takes it over once it is old. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
  },
  (t) => [
    index('callbacks_received_idx').on(t.receivedAt.desc()),
    index('callbacks_execution_idx').on(t.executionId),
    index('callbacks_inbox_idx')
      .on(t.id)
      .where(sql`${t.dispatchedAt} is null`),
  ],
);

/** Backfills, reconciliations and polls, with progress that survives restarts. */
export const syncRuns = pgTable(
  'sync_runs',
  {
    id: serialPrimaryKey(),
    kind: text('kind').notNull(),
    state: text('state').notNull().default('running'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Next page of R12 to read; a resumed run starts here. */
    nextPage: integer('next_page').notNull().default(1),
    pageSize: integer('page_size').notNull().default(100),
    seen: integer('seen').notNull().default(0),
    written: integer('written').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    totalEstimate: integer('total_estimate'),
    error: text('error'),
    startedBy: text('started_by'),
    /** Who runs it now (`worker:<host>:<pid>`, `cli:<pid>`); a lease renewed through `updatedAt`. */
    owner: text('owner'),
    /** Incremental runs stop at a page older than this (the newest `headCreatedAt` of a completed run, less an overlap). */
    stopBefore: timestamp('stop_before', { withTimezone: true }),
    /** `createdAt` of the newest execution on the first page: everything up to it was seen once the run completes. */
    headCreatedAt: timestamp('head_created_at', { withTimezone: true }),
    /** Distinct executions listed by a run that walked to the end (reconcile, first backfill). */
    serviceTotal: integer('service_total'),
    /** Cached executions when such a run completed. */
    cacheTotal: integer('cache_total'),
    /** Counts of the comparison (inserted, updated, gone, missing ...). */
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('sync_runs_started_idx').on(t.startedAt.desc()),
    // At most one open run per kind: a second "start backfill" resumes the open one.
    uniqueIndex('sync_runs_open_kind_idx')
      .on(t.kind)
      .where(sql`${t.finishedAt} is null`),
  ],
);
