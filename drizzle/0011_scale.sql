CREATE TABLE "service_rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"tat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "callbacks" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "callbacks" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "callbacks_inbox_idx" ON "callbacks" USING btree ("id") WHERE "callbacks"."dispatched_at" is null;--> statement-breakpoint
-- Callbacks stored before the inbox were dispatched on arrival (stale mark and fetch job in the same transaction).
UPDATE "callbacks" SET "dispatched_at" = "received_at" WHERE "dispatched_at" IS NULL;
