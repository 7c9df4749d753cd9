/** What other features use of realtime: the bus they publish their live events on. */
export type { EventBus, Published } from "./bus.ts";
