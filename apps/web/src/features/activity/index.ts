/** What other features use of the activity log. */
export { ActivityFeed } from "./ActivityFeed.tsx";
