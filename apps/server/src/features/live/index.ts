/** What other features use of the live feature: the bus they publish their live events on. */
export type { EventBus, Published } from "./bus.ts";
