-- The time zone a user reads times in (an IANA name such as Europe/Berlin); NULL reads UTC.
-- Stored with the user's other preferences (hidden_columns), so it follows them to any browser.
ALTER TABLE "users" ADD COLUMN "time_zone" text;
