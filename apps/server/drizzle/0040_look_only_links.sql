ALTER TABLE "invite_links" ALTER COLUMN "max_uses" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invite_links" ADD COLUMN "look_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invite_links" ADD CONSTRAINT "invite_links_look_only_shape" CHECK (("invite_links"."look_only" and "invite_links"."role" = 'viewer' and "invite_links"."max_uses" is null and "invite_links"."uses" = 0)
        or (not "invite_links"."look_only" and "invite_links"."max_uses" is not null));