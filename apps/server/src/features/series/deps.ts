/** What the series functions are given: the one deps object of the feature, built in `src/services.ts`. */
import type { Jobs } from "../jobs/index.ts";
import type { SessionDeps } from "../sessions/index.ts";

export interface SeriesDeps extends Pick<SessionDeps, "db" | "clock" | "events" | "media"> {
  /** Sends the job that starts the next session (at an occurrence, or after a checkout). */
  jobs: Pick<Jobs, "send">;
}
