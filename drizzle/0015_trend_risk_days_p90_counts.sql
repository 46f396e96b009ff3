ALTER TABLE "trend_risk_days" ADD COLUMN "below_p90" integer;--> statement-breakpoint
ALTER TABLE "trend_risk_days" ADD COLUMN "at_p90" integer;