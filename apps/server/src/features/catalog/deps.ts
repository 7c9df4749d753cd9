/**
 * What the operator's catalog functions need, built once in `src/services.ts`: the database, the
 * bus every server hears changes on, this server's catalog in memory, the media URLs, and what
 * open carts need to follow a change (the clock, notifications, the currency).
 */
import type { Db } from "../../db/types.ts";
import type { Media } from "../../lib/media.ts";
import type { EventBus } from "../live/index.ts";
import type { Catalog } from "../products/index.ts";
import type { CatalogChangeDeps } from "./follow.ts";

export interface CatalogDeps extends CatalogChangeDeps {
  db: Db;
  events: Pick<EventBus, "publish">;
  catalog: Pick<Catalog, "refresh">;
  media: Media;
}
