DROP INDEX "cases_unresolved_queue_idx";--> statement-breakpoint
CREATE INDEX "case_events_escalated_idx" ON "case_events" USING btree ("actor_id","case_id") WHERE "case_events"."type" = 'escalated';--> statement-breakpoint
CREATE INDEX "cases_resolved_queue_idx" ON "cases" USING btree ("queue_id","resolved_at","arrived_at","outcome","decision_at_outcome","id") WHERE "cases"."state" = 'resolved';--> statement-breakpoint
CREATE INDEX "cases_resolved_by_idx" ON "cases" USING btree ("resolved_by","resolved_at","arrived_at","outcome","id") WHERE "cases"."state" = 'resolved';--> statement-breakpoint
CREATE INDEX "cases_unresolved_queue_idx" ON "cases" USING btree ("queue_id","arrived_at","state","due_at") WHERE "cases"."state" <> 'resolved';