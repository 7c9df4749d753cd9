/** What other features use of the job queue. */
export { createJobs, QUEUES, type Jobs, type QueueName, type SendOptions } from "./queue.ts";
