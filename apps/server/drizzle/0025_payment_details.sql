CREATE TABLE "payment_details" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"iban" text,
	"account_name" text,
	"pay_link" text,
	"note" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_details" ADD CONSTRAINT "payment_details_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;