CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('analyst', 'manager', 'admin');--> statement-breakpoint
CREATE TYPE "public"."audit_outcome" AS ENUM('success', 'failure', 'denied');--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"first_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" "role" DEFAULT 'analyst' NOT NULL,
	"password_hash" text,
	"active" boolean DEFAULT true NOT NULL,
	"hidden_columns" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_email" text,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"outcome" "audit_outcome" DEFAULT 'success' NOT NULL,
	"ip" text,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE TABLE "callbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"execution_id" uuid NOT NULL,
	"account_id" uuid,
	"status" text,
	"callback_sent_at" timestamp with time zone,
	"source_ip" text,
	"body" jsonb NOT NULL,
	"processed_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "capability_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"execution_id" uuid NOT NULL,
	"capability" text NOT NULL,
	"entry_id" text NOT NULL,
	"position" smallint NOT NULL,
	"decision_type" text,
	"decision_label" text,
	"credential_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"data" jsonb,
	"raw" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"id" uuid PRIMARY KEY NOT NULL,
	"execution_id" uuid NOT NULL,
	"category" text,
	"label" text,
	"client_ip" text,
	"parts" jsonb,
	"raw" jsonb
);
--> statement-breakpoint
CREATE TABLE "execution_links" (
	"execution_id" uuid NOT NULL,
	"linked_id" uuid NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "execution_links_execution_id_linked_id_kind_pk" PRIMARY KEY("execution_id","linked_id","kind")
);
--> statement-breakpoint
CREATE TABLE "executions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"status" text NOT NULL,
	"status_rank" smallint DEFAULT 0 NOT NULL,
	"decision_type" text,
	"decision_label" text,
	"risk_score" integer,
	"definition_key" text,
	"original_definition_key" text,
	"user_reference" text,
	"customer_internal_reference" text,
	"reporting_criteria" text,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"wiped_out_at" timestamp with time zone,
	"gone_at" timestamp with time zone,
	"issuing_country" text,
	"document_type" text,
	"document_number" text,
	"first_name" text,
	"last_name" text,
	"date_of_birth" text,
	"document_key" text,
	"search_text" text,
	"capability_tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"feedback_status" text,
	"feedback_reason" text,
	"feedback_provided_at" timestamp with time zone,
	"feedback_delivery" text,
	"has_personal_data" boolean DEFAULT true NOT NULL,
	"personal_data_purged_at" timestamp with time zone,
	"result" jsonb,
	"raw_steps" jsonb,
	"raw_rules" jsonb,
	"fetched_at" timestamp with time zone,
	"stale_since" timestamp with time zone,
	"inserted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "part_images" (
	"credential_id" uuid NOT NULL,
	"classifier" text NOT NULL,
	"execution_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "part_images_credential_id_classifier_pk" PRIMARY KEY("credential_id","classifier")
);
--> statement-breakpoint
CREATE TABLE "rule_executions" (
	"id" text PRIMARY KEY NOT NULL,
	"execution_id" uuid NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rule_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"execution_id" uuid NOT NULL,
	"rule_execution_id" text NOT NULL,
	"ruleset_id" text NOT NULL,
	"ruleset_name" text,
	"ruleset_version" integer,
	"ruleset_score" real,
	"rule_id" text NOT NULL,
	"rule_name" text,
	"rule_version" integer,
	"score" real,
	"matched" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "steps" (
	"execution_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"step_id" integer,
	"name" text,
	"decision_type" text,
	"decision_label" text,
	"capability_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"raw" jsonb NOT NULL,
	CONSTRAINT "steps_execution_id_position_pk" PRIMARY KEY("execution_id","position")
);
--> statement-breakpoint
CREATE TABLE "sync_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"next_page" integer DEFAULT 1 NOT NULL,
	"page_size" integer DEFAULT 100 NOT NULL,
	"seen" integer DEFAULT 0 NOT NULL,
	"written" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"total_estimate" integer,
	"error" text,
	"started_by" text
);
--> statement-breakpoint
ALTER TABLE "user_sessions" ADD CONSTRAINT "user_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capability_entries" ADD CONSTRAINT "capability_entries_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_links" ADD CONSTRAINT "execution_links_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "part_images" ADD CONSTRAINT "part_images_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_executions" ADD CONSTRAINT "rule_executions_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_results" ADD CONSTRAINT "rule_results_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "steps" ADD CONSTRAINT "steps_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_sessions_user_idx" ON "user_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "callbacks_received_idx" ON "callbacks" USING btree ("received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "callbacks_execution_idx" ON "callbacks" USING btree ("execution_id");--> statement-breakpoint
CREATE UNIQUE INDEX "capability_entries_key" ON "capability_entries" USING btree ("execution_id","capability","position");--> statement-breakpoint
CREATE INDEX "capability_entries_cap_decision_idx" ON "capability_entries" USING btree ("capability","decision_type","decision_label");--> statement-breakpoint
CREATE INDEX "credentials_execution_idx" ON "credentials" USING btree ("execution_id");--> statement-breakpoint
CREATE INDEX "execution_links_linked_idx" ON "execution_links" USING btree ("linked_id");--> statement-breakpoint
CREATE INDEX "executions_created_idx" ON "executions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "executions_completed_idx" ON "executions" USING btree ("completed_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "executions_risk_idx" ON "executions" USING btree ("risk_score" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "executions_decision_created_idx" ON "executions" USING btree ("decision_type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "executions_status_created_idx" ON "executions" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "executions_country_created_idx" ON "executions" USING btree ("issuing_country","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "executions_feedback_created_idx" ON "executions" USING btree ("feedback_status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "executions_delivery_idx" ON "executions" USING btree ("feedback_delivery") WHERE "executions"."feedback_delivery" is not null;--> statement-breakpoint
CREATE INDEX "executions_account_idx" ON "executions" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "executions_document_key_idx" ON "executions" USING btree ("document_key") WHERE "executions"."document_key" is not null;--> statement-breakpoint
CREATE INDEX "executions_document_number_idx" ON "executions" USING btree ("document_number") WHERE "executions"."document_number" is not null;--> statement-breakpoint
CREATE INDEX "executions_cir_idx" ON "executions" USING btree ("customer_internal_reference");--> statement-breakpoint
CREATE INDEX "executions_user_ref_idx" ON "executions" USING btree ("user_reference");--> statement-breakpoint
CREATE INDEX "executions_search_trgm_idx" ON "executions" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "executions_capability_tags_idx" ON "executions" USING gin ("capability_tags");--> statement-breakpoint
CREATE INDEX "executions_stale_idx" ON "executions" USING btree ("stale_since") WHERE "executions"."stale_since" is not null;--> statement-breakpoint
CREATE INDEX "part_images_execution_idx" ON "part_images" USING btree ("execution_id");--> statement-breakpoint
CREATE INDEX "rule_executions_execution_idx" ON "rule_executions" USING btree ("execution_id");--> statement-breakpoint
CREATE INDEX "rule_results_execution_idx" ON "rule_results" USING btree ("execution_id");--> statement-breakpoint
CREATE INDEX "rule_results_rule_idx" ON "rule_results" USING btree ("rule_id","matched");--> statement-breakpoint
CREATE INDEX "sync_runs_started_idx" ON "sync_runs" USING btree ("started_at" DESC NULLS LAST);