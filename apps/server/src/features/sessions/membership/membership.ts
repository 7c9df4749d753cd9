/**
 * Who gets into a session and how: join requests by code and passcode (join-requests.ts) and
 * invites by email or name (invites.ts), both built from membership-deps.ts. The session service
 * owns sessions themselves; these only change their members.
 */
import { createInviteService } from "../invites/invites.ts";
import { createJoinRequestService } from "./join-requests.ts";
import type { MembershipDeps } from "./deps.ts";

export function createMembershipService(deps: MembershipDeps) {
  return { ...createJoinRequestService(deps), ...createInviteService(deps) };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
