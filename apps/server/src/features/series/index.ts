/** What other features use of series: the job a checkout sends for the next session. */
export { afterCheckout } from "./service.ts";
