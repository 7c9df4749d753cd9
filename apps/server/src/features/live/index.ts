/**
 * What other features use of the live feature: the bus they publish their live events on (and
 * its channel on PostgreSQL, which a command line's transaction may notify).
 */
export type { BusMessage, EventBus, Published } from "./bus.ts";
export { LIVE_CHANNEL } from "./bus.ts";
