-- permission_of() and pricing_rates() become table functions (RETURNS TABLE) that PostgreSQL
-- inlines into the caller's cached plan; their return type changes, so the old ones are dropped
-- here and made again on start (src/db/functions.ts).
DROP FUNCTION IF EXISTS permission_of(text);--> statement-breakpoint
DROP FUNCTION IF EXISTS pricing_rates();
