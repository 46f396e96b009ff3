CREATE TABLE "case_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"execution_id" uuid NOT NULL,
	"type" text NOT NULL,
	"actor_id" uuid,
	"queue_id" uuid,
	"assignee_id" uuid,
	"outcome" text,
	"reason" text,
	"comment" text,
	"waited_seconds" integer,
	"details" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"note_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"execution_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_notes_body_check" CHECK (length("case_notes"."body") between 1 and 5000)
);
--> statement-breakpoint
CREATE TABLE "case_queues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"priority" integer DEFAULT 100 NOT NULL,
	"sla_hours" integer NOT NULL,
	"definition" text DEFAULT '' NOT NULL,
	"kind" text DEFAULT 'filter' NOT NULL,
	"min_role" text DEFAULT 'analyst' NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_queues_sla_check" CHECK ("case_queues"."sla_hours" between 1 and 8760),
	CONSTRAINT "case_queues_definition_check" CHECK (length("case_queues"."definition") <= 4000)
);
--> statement-breakpoint
CREATE TABLE "case_reasons" (
	"code" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"outcomes" text[] NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_rematch_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue_id" uuid,
	"state" text DEFAULT 'queued' NOT NULL,
	"total" integer,
	"done" integer DEFAULT 0 NOT NULL,
	"last_id" uuid,
	"started_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"execution_id" uuid NOT NULL,
	"queue_id" uuid NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"assignee_id" uuid,
	"claimed_at" timestamp with time zone,
	"arrived_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"outcome" text,
	"reason" text,
	"comment" text,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cases_claim_check" CHECK (("cases"."state" = 'in_review') = ("cases"."assignee_id" is not null and "cases"."claimed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "case_events" ADD CONSTRAINT "case_events_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_events" ADD CONSTRAINT "case_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_notes" ADD CONSTRAINT "case_notes_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_notes" ADD CONSTRAINT "case_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_queues" ADD CONSTRAINT "case_queues_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_rematch_runs" ADD CONSTRAINT "case_rematch_runs_queue_id_case_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."case_queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_rematch_runs" ADD CONSTRAINT "case_rematch_runs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_queue_id_case_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."case_queues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_events_case_idx" ON "case_events" USING btree ("case_id","at");--> statement-breakpoint
CREATE INDEX "case_events_outcome_idx" ON "case_events" USING btree ("at") WHERE "case_events"."type" in ('resolved', 'escalated');--> statement-breakpoint
CREATE UNIQUE INDEX "case_notes_version_key" ON "case_notes" USING btree ("note_id","version");--> statement-breakpoint
CREATE INDEX "case_notes_execution_idx" ON "case_notes" USING btree ("execution_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "case_queues_name_key" ON "case_queues" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "cases_execution_key" ON "cases" USING btree ("execution_id");--> statement-breakpoint
CREATE INDEX "cases_open_queue_due_idx" ON "cases" USING btree ("queue_id","due_at","id") WHERE "cases"."state" = 'open';--> statement-breakpoint
CREATE INDEX "cases_claimed_idx" ON "cases" USING btree ("claimed_at") WHERE "cases"."state" = 'in_review';--> statement-breakpoint
CREATE INDEX "cases_assignee_idx" ON "cases" USING btree ("assignee_id") WHERE "cases"."state" = 'in_review';--> statement-breakpoint
CREATE INDEX "cases_unresolved_queue_idx" ON "cases" USING btree ("queue_id","arrived_at") WHERE "cases"."state" <> 'resolved';--> statement-breakpoint
CREATE INDEX "cases_resolved_idx" ON "cases" USING btree ("resolved_at") WHERE "cases"."state" = 'resolved';--> statement-breakpoint
-- Case history and notes are never rewritten: an edit of a note is its next version. Rows go
-- only with their case or execution (cascades, e.g. when the cache drops an execution).
CREATE OR REPLACE FUNCTION case_history_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER case_events_no_update BEFORE UPDATE ON case_events
  FOR EACH ROW EXECUTE FUNCTION case_history_append_only();
--> statement-breakpoint
CREATE TRIGGER case_notes_no_update BEFORE UPDATE ON case_notes
  FOR EACH ROW EXECUTE FUNCTION case_history_append_only();
--> statement-breakpoint
-- Default queues of a fresh install (the WARNING band starts at 31, REJECTED at 71: lib/executions/risk.ts).
INSERT INTO case_queues (name, priority, sla_hours, definition, kind, min_role, sort_order) VALUES
  ('Escalations', 10, 8, '', 'escalation', 'manager', 0),
  ('Rejected to confirm', 20, 24, 'decision=REJECTED', 'filter', 'analyst', 1),
  ('High-risk passes', 30, 24, 'decision=PASSED&riskMin=25', 'filter', 'analyst', 2),
  ('Warnings', 40, 48, 'decision=WARNING', 'filter', 'analyst', 3);
--> statement-breakpoint
INSERT INTO case_reasons (code, label, outcomes, sort_order) VALUES
  ('DOCUMENT_GENUINE', 'Document checked and genuine', '{approve}', 1),
  ('FACE_MATCH_CONFIRMED', 'Face match confirmed by eye', '{approve}', 2),
  ('FALSE_POSITIVE_RULE', 'Rule fired on legitimate data', '{approve}', 3),
  ('DOCUMENT_FORGED', 'Document forged or tampered with', '{decline}', 4),
  ('IMPERSONATION', 'Someone else''s identity', '{decline}', 5),
  ('DIGITAL_COPY', 'Screen or printed copy', '{decline}', 6),
  ('KNOWN_FRAUD_PATTERN', 'Matches a known fraud pattern', '{decline,escalate}', 7),
  ('NEEDS_SENIOR_REVIEW', 'Needs a senior reviewer', '{escalate}', 8),
  ('OTHER', 'Other (see comment)', '{approve,decline,escalate}', 9);
