/** A session's deadline: set, move, clear, reopen. */
import { ReopenBodySchema, SetDeadlineBodySchema } from "../deadlines.ts";
import { SessionIdParams, sessionErrors, type EndpointGroup } from "./base.ts";
import { SessionResponseSchema } from "./envelopes.ts";

export const deadlineEndpoints = {
  "PUT /api/sessions/:id/deadline": {
    summary:
      "Set or move the deadline: when the cart closes (in the future), reminders (minutes before; default 24 h and 1 h), automatic checkout (default off); a move keeps what it does not name; null clears it (creator)",
    access: "session.deadline",
    params: SessionIdParams,
    body: SetDeadlineBodySchema,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
  "POST /api/sessions/:id/reopen": {
    summary: "Open a cart that closed at its deadline until a new, future deadline (creator)",
    access: "session.deadline",
    params: SessionIdParams,
    body: ReopenBodySchema,
    responses: { 200: SessionResponseSchema },
    errors: sessionErrors,
  },
} as const satisfies EndpointGroup;
