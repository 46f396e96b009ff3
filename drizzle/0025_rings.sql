CREATE TABLE "link_keys" (
	"execution_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key_hash" text NOT NULL,
	"evidence" text NOT NULL,
	CONSTRAINT "link_keys_execution_id_kind_key_hash_pk" PRIMARY KEY("execution_id","kind","key_hash")
);
--> statement-breakpoint
CREATE TABLE "link_values" (
	"kind" text NOT NULL,
	"key_hash" text NOT NULL,
	"executions" integer NOT NULL,
	CONSTRAINT "link_values_kind_key_hash_pk" PRIMARY KEY("kind","key_hash")
);
--> statement-breakpoint
CREATE TABLE "rings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"fraud" integer DEFAULT 0 NOT NULL,
	"link_kinds" text[] DEFAULT '{}' NOT NULL,
	"score" real DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"dismissed_size" integer,
	"dismissed_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"announced_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ring_members" (
	"execution_id" uuid PRIMARY KEY NOT NULL,
	"ring_id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "link_keys" ADD CONSTRAINT "link_keys_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ring_members" ADD CONSTRAINT "ring_members_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ring_members" ADD CONSTRAINT "ring_members_ring_id_rings_id_fk" FOREIGN KEY ("ring_id") REFERENCES "public"."rings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_keys_key_idx" ON "link_keys" USING btree ("kind","key_hash");--> statement-breakpoint
CREATE INDEX "rings_score_idx" ON "rings" USING btree ("score","id");--> statement-breakpoint
CREATE INDEX "rings_last_seen_idx" ON "rings" USING btree ("last_seen");--> statement-breakpoint
CREATE INDEX "ring_members_ring_idx" ON "ring_members" USING btree ("ring_id","created_at");
