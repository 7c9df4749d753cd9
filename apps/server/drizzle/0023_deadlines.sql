CREATE TABLE "deadline_reminders" (
	"session_id" uuid NOT NULL,
	"minutes_before" integer NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"sent" boolean NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deadline_reminders_session_id_minutes_before_pk" PRIMARY KEY("session_id","minutes_before")
);
--> statement-breakpoint
CREATE TABLE "session_deadlines" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"remind_at" integer[] NOT NULL,
	"auto_checkout" boolean DEFAULT false NOT NULL,
	"locked_at" timestamp with time zone,
	"checkout_due" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_deadlines_reminders" CHECK (cardinality("session_deadlines"."remind_at") <= 5)
);
--> statement-breakpoint
ALTER TABLE "deadline_reminders" ADD CONSTRAINT "deadline_reminders_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_deadlines" ADD CONSTRAINT "session_deadlines_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_deadlines_closes_idx" ON "session_deadlines" USING btree ("closes_at");