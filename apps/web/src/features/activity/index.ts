/** What other features use of the activity log. */
export { ActivityFeed } from "./ActivityFeed.tsx";
export { timeAgo } from "./activity-model.ts";
