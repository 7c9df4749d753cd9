import type { Member, Role } from "@cartner/contract";

/** What a session or a cart's session says about who is in it. */
interface Group {
  creator?: { _id: string } | null | undefined;
  invitedUsers?: Member[] | null | undefined;
}

/**
 * The caller's role: their invitedUsers entry (the creator id is the fallback for the creator).
 * The client only mirrors the server's rules (the permissions table decides what a role may do).
 */
export function roleIn(
  group: Group | null | undefined,
  userId: string | null | undefined,
): Role | null {
  if (!group || !userId) return null;
  const entry = group.invitedUsers?.find((member) => member.userId === userId);
  if (entry) return entry.role;
  return group.creator?._id === userId ? "creator" : null;
}
