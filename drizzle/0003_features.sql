CREATE TABLE "sync_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"execution_id" uuid,
	"account_id" uuid,
	"run_id" bigint,
	"error" text NOT NULL,
	"state" text DEFAULT 'failed' NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sync_seen" (
	"execution_id" uuid PRIMARY KEY NOT NULL,
	"run_id" bigint NOT NULL,
	"listed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pii_reveals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"execution_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_terms" (
	"token" text PRIMARY KEY NOT NULL,
	"term" text NOT NULL,
	"term_hash" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feedback_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"submission_id" uuid NOT NULL,
	"execution_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"from_state" text,
	"to_state" text,
	"actor_id" uuid,
	"actor_email" text,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "feedback_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"execution_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"note" text,
	"state" text NOT NULL,
	"submitted_by" uuid NOT NULL,
	"submitted_by_email" text NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"idempotency_key" text NOT NULL,
	"base_submission_id" uuid,
	"batch_id" uuid,
	"decided_by" uuid,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	"approval_comment" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" jsonb,
	"last_attempt_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"superseded_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feedback_submissions_state_check" CHECK ("feedback_submissions"."state" in ('awaiting_approval', 'pending', 'delivering', 'delivered', 'failed', 'rejected', 'superseded')),
	CONSTRAINT "feedback_submissions_status_check" CHECK ("feedback_submissions"."status" in ('NA', 'FRAUD', 'NOT_FRAUD')),
	CONSTRAINT "feedback_submissions_fraud_reason_check" CHECK ("feedback_submissions"."status" <> 'FRAUD' or ("feedback_submissions"."reason" is not null and "feedback_submissions"."reason" <> 'NA')),
	CONSTRAINT "feedback_submissions_note_check" CHECK (char_length("feedback_submissions"."note") <= 2000),
	CONSTRAINT "feedback_submissions_comment_check" CHECK (char_length("feedback_submissions"."approval_comment") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "trend_decisions" (
	"scope" smallint NOT NULL,
	"definition_key" text NOT NULL,
	"issuing_country" text NOT NULL,
	"document_type" text NOT NULL,
	"day" date NOT NULL,
	"decision_type" text NOT NULL,
	"feedback_status" text NOT NULL,
	"feedback_reason" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "trend_decisions_pk" PRIMARY KEY("scope","definition_key","issuing_country","document_type","day","decision_type","feedback_status","feedback_reason")
);
--> statement-breakpoint
CREATE TABLE "trend_labels" (
	"scope" smallint NOT NULL,
	"definition_key" text NOT NULL,
	"issuing_country" text NOT NULL,
	"document_type" text NOT NULL,
	"day" date NOT NULL,
	"capability" text NOT NULL,
	"decision_type" text NOT NULL,
	"label" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "trend_labels_pk" PRIMARY KEY("scope","definition_key","issuing_country","document_type","day","capability","decision_type","label")
);
--> statement-breakpoint
CREATE TABLE "trend_risk" (
	"scope" smallint NOT NULL,
	"definition_key" text NOT NULL,
	"issuing_country" text NOT NULL,
	"document_type" text NOT NULL,
	"day" date NOT NULL,
	"risk_score" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "trend_risk_pk" PRIMARY KEY("scope","definition_key","issuing_country","document_type","day","risk_score")
);
--> statement-breakpoint
CREATE TABLE "trend_rule_names" (
	"rule_id" text PRIMARY KEY NOT NULL,
	"rule_name" text,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trend_rules" (
	"scope" smallint NOT NULL,
	"definition_key" text NOT NULL,
	"issuing_country" text NOT NULL,
	"document_type" text NOT NULL,
	"day" date NOT NULL,
	"rule_id" text NOT NULL,
	"feedback_status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "trend_rules_pk" PRIMARY KEY("scope","definition_key","issuing_country","document_type","day","rule_id","feedback_status")
);
--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "facets" text[] GENERATED ALWAYS AS (array_remove(array['decision=' || decision_type, 'status=' || status, 'country=' || issuing_country, 'doctype=' || document_type, 'definition=' || definition_key, 'criteria=' || reporting_criteria, 'feedback=' || coalesce(nullif(feedback_status, 'NA'), 'none'), case when feedback_delivery in ('pending', 'failed', 'awaiting_approval') then 'delivery=open' end], null)) STORED;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "stop_before" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "head_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "service_total" integer;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "cache_total" integer;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "pii_reveals" ADD CONSTRAINT "pii_reveals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pii_reveals" ADD CONSTRAINT "pii_reveals_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_terms" ADD CONSTRAINT "search_terms_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_events" ADD CONSTRAINT "feedback_events_submission_id_feedback_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."feedback_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_submissions" ADD CONSTRAINT "feedback_submissions_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_submissions" ADD CONSTRAINT "feedback_submissions_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback_submissions" ADD CONSTRAINT "feedback_submissions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sync_failures_open_execution_idx" ON "sync_failures" USING btree ("execution_id") WHERE "sync_failures"."resolved_at" is null and "sync_failures"."execution_id" is not null;--> statement-breakpoint
CREATE INDEX "sync_failures_open_idx" ON "sync_failures" USING btree ("last_at" DESC NULLS LAST) WHERE "sync_failures"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "sync_seen_run_idx" ON "sync_seen" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "pii_reveals_user_execution_idx" ON "pii_reveals" USING btree ("user_id","execution_id","expires_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "search_terms_user_hash_key" ON "search_terms" USING btree ("created_by","term_hash");--> statement-breakpoint
CREATE INDEX "search_terms_expires_idx" ON "search_terms" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "feedback_events_submission_idx" ON "feedback_events" USING btree ("submission_id","id");--> statement-breakpoint
CREATE INDEX "feedback_events_execution_idx" ON "feedback_events" USING btree ("execution_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "feedback_submissions_idempotency_key" ON "feedback_submissions" USING btree ("submitted_by","idempotency_key");--> statement-breakpoint
CREATE INDEX "feedback_submissions_execution_idx" ON "feedback_submissions" USING btree ("execution_id","submitted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "feedback_submissions_open_idx" ON "feedback_submissions" USING btree ("state","submitted_at") WHERE "feedback_submissions"."state" in ('awaiting_approval', 'pending', 'delivering', 'failed');--> statement-breakpoint
CREATE INDEX "feedback_submissions_batch_idx" ON "feedback_submissions" USING btree ("batch_id") WHERE "feedback_submissions"."batch_id" is not null;--> statement-breakpoint
CREATE INDEX "executions_facets_idx" ON "executions" USING gin ("facets");--> statement-breakpoint
CREATE INDEX "executions_decision_risk_idx" ON "executions" USING btree ("decision_type","risk_score" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "sync_runs_open_kind_idx" ON "sync_runs" USING btree ("kind") WHERE "sync_runs"."finished_at" is null;