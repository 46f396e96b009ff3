-- The W3C traceparent of the change that caused a webhook event (null when no trace was being
-- recorded): the delivery continues that trace whichever worker sends it (lib/telemetry/tracing.ts).
ALTER TABLE "webhook_events" ADD COLUMN "trace_parent" text;
