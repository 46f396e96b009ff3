CREATE TABLE "qa_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"execution_id" uuid NOT NULL,
	"queue_id" uuid,
	"week" date NOT NULL,
	"run_id" uuid,
	"first_analyst_id" uuid NOT NULL,
	"first_outcome" text NOT NULL,
	"first_reason" text NOT NULL,
	"first_comment" text,
	"first_resolved_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"assignee_id" uuid,
	"claimed_at" timestamp with time zone,
	"reviewer_id" uuid,
	"review_outcome" text,
	"review_reason" text,
	"review_comment" text,
	"reviewed_at" timestamp with time zone,
	"settled_by" uuid,
	"settled_outcome" text,
	"settled_reason" text,
	"settled_comment" text,
	"settled_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"sampled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qa_reviews_claim_check" CHECK (("qa_reviews"."state" = 'in_review') = ("qa_reviews"."assignee_id" is not null)),
	CONSTRAINT "qa_reviews_second_pair_check" CHECK ("qa_reviews"."reviewer_id" is null or "qa_reviews"."reviewer_id" <> "qa_reviews"."first_analyst_id"),
	CONSTRAINT "qa_reviews_assignee_check" CHECK ("qa_reviews"."assignee_id" is null or "qa_reviews"."assignee_id" <> "qa_reviews"."first_analyst_id"),
	CONSTRAINT "qa_reviews_decided_check" CHECK (("qa_reviews"."state" in ('agreed', 'disputed', 'settled')) = ("qa_reviews"."review_outcome" is not null)),
	CONSTRAINT "qa_reviews_settled_check" CHECK (("qa_reviews"."state" = 'settled') = ("qa_reviews"."settled_outcome" is not null))
);
--> statement-breakpoint
CREATE TABLE "qa_sample_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"week" date NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"total" integer,
	"done" integer DEFAULT 0 NOT NULL,
	"sampled" integer DEFAULT 0 NOT NULL,
	"settings" jsonb,
	"trigger" text DEFAULT 'manual' NOT NULL,
	"started_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "qa_reviews" ADD CONSTRAINT "qa_reviews_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_reviews" ADD CONSTRAINT "qa_reviews_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_reviews" ADD CONSTRAINT "qa_reviews_queue_id_case_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."case_queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_reviews" ADD CONSTRAINT "qa_reviews_run_id_qa_sample_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."qa_sample_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_reviews" ADD CONSTRAINT "qa_reviews_first_analyst_id_users_id_fk" FOREIGN KEY ("first_analyst_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_reviews" ADD CONSTRAINT "qa_reviews_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_reviews" ADD CONSTRAINT "qa_reviews_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_reviews" ADD CONSTRAINT "qa_reviews_settled_by_users_id_fk" FOREIGN KEY ("settled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qa_sample_runs" ADD CONSTRAINT "qa_sample_runs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "qa_reviews_case_key" ON "qa_reviews" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "qa_reviews_execution_idx" ON "qa_reviews" USING btree ("execution_id");--> statement-breakpoint
CREATE INDEX "qa_reviews_open_idx" ON "qa_reviews" USING btree ("sampled_at","id") WHERE "qa_reviews"."state" = 'open';--> statement-breakpoint
CREATE INDEX "qa_reviews_claimed_idx" ON "qa_reviews" USING btree ("claimed_at") WHERE "qa_reviews"."state" = 'in_review';--> statement-breakpoint
CREATE INDEX "qa_reviews_week_analyst_idx" ON "qa_reviews" USING btree ("week","first_analyst_id");--> statement-breakpoint
CREATE INDEX "qa_sample_runs_created_idx" ON "qa_sample_runs" USING btree ("created_at");