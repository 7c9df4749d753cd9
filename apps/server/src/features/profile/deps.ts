/**
 * What the profile functions need (the profile, the time zone, the account's export and
 * deletion): the one deps object of the feature, built once in `src/services.ts`.
 */
import type { Db } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Media } from "../../lib/media.ts";
import type { EventBus } from "../live/index.ts";

export interface ProfileDeps {
  db: Db;
  clock: Clock;
  media: Media;
  /** Told of every committed session write of a deletion (never of a rolled-back one). */
  events: Pick<EventBus, "publish">;
  /** After a name change: auth forgets the user's cached sessions, which carry the name. */
  onNameChanged?: ((userId: string) => void) | undefined;
  /** Closes the user's live sockets and forgets their cached auth sessions. */
  signOutEverywhere: (userId: string) => void;
}
