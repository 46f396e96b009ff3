CREATE TABLE "denied_call_counts" (
	"ip" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "denied_call_counts_ip_minute_kind_pk" PRIMARY KEY("ip","minute","kind")
);
