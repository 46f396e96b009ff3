ALTER TABLE "users" ADD COLUMN "sso" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sso_subject" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_sso_subject_key" ON "users" USING btree ("sso_subject");--> statement-breakpoint
-- Users created without a password were the SSO users before the flag existed.
UPDATE "users" SET "sso" = true WHERE "password_hash" IS NULL;
