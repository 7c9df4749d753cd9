/* What other features use of the live connection: the socket's address and the reconnect delays. */
export { backoffDelay, liveUrl } from "./live-client.ts";
