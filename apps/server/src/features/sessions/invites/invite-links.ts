/**
 * Invite links (random tokens, stored only as their hash): the creator makes, lists and revokes
 * links that make a member without approval; anyone with one previews it, and a signed-in user
 * accepts it.
 */
import crypto from "node:crypto";
import {
  SOLO_NO_INVITES,
  takesInvites,
  ErrorCode,
  INVITE_TOKEN_LENGTH,
  type CreateInviteLinkBody,
  type InviteLink,
  type InvitePreview,
  type User,
} from "@cartner/contract";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { inviteLinks, sessionMembers, sessions, users } from "../../../db/schema.ts";
import { AppError, conflict, notFound } from "../../../lib/errors.ts";
import type { SessionDeps } from "../deps.ts";
import { accessSession } from "../lifecycle/access.ts";
import { toMembers, writeSession } from "../lifecycle/write.ts";

type LinkRow = typeof inviteLinks.$inferSelect;

const linkNotFound = () => notFound("Invite link not found");
const TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${INVITE_TOKEN_LENGTH}}$`);
const sha256 = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** Why a link no longer works: revoked, expired or used up, each a 410 with its own code. */
function gone(link: LinkRow, now: Date): AppError | null {
  if (link.revokedAt)
    return new AppError(410, ErrorCode.LINK_REVOKED, "This invite link was revoked.");
  if (link.expiresAt <= now)
    return new AppError(410, ErrorCode.LINK_EXPIRED, "This invite link has expired.");
  if (link.maxUses !== null && link.uses >= link.maxUses) {
    return new AppError(
      410,
      ErrorCode.LINK_USED_UP,
      "This invite link has been used as often as it may.",
    );
  }
  return null;
}

function seal(linkKey: Buffer, token: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", linkKey, iv);
  const sealed = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

function unseal(linkKey: Buffer, value: string): string {
  const raw = Buffer.from(value, "base64url");
  const decipher = crypto.createDecipheriv("aes-256-gcm", linkKey, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

function toLink(deps: Pick<SessionDeps, "media" | "linkKey">, row: LinkRow): InviteLink {
  const token = unseal(deps.linkKey, row.tokenSealed);
  return {
    _id: row.id,
    url: deps.media.page(`/${row.lookOnly ? "look" : "join"}/${token}`),
    token,
    role: row.role,
    lookOnly: row.lookOnly,
    expiresAt: row.expiresAt.toISOString(),
    maxUses: row.maxUses,
    uses: row.uses,
    revoked: row.revokedAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The creator makes a link with a role, a lifetime and a number of uses, or a look-only link with
 * a lifetime (the body's rules: viewer, no uses).
 */
export async function createLink(
  deps: SessionDeps,
  sessionId: string,
  user: User,
  body: CreateInviteLinkBody,
) {
  const { db, clock } = deps;
  const now = clock.now();
  // 128 random bits, 22 base64url characters.
  const token = crypto.randomBytes(16).toString("base64url");
  // A link changes no member's view of the session: no entry, the version stays.
  const { result: row } = await writeSession(db, deps, {
    sessionId,
    userId: user._id,
    action: "session.links",
    change: async ({ tx, session }) => {
      // A link is an invite: a Solo session takes none.
      if (!takesInvites(session.type)) throw conflict(SOLO_NO_INVITES);
      const [inserted] = await tx
        .insert(inviteLinks)
        .values({
          sessionId,
          tokenHash: sha256(token),
          tokenSealed: seal(deps.linkKey, token),
          role: body.lookOnly ? "viewer" : body.role!,
          lookOnly: body.lookOnly ?? false,
          expiresAt: new Date(now.getTime() + body.expiresInHours * 3_600_000),
          maxUses: body.lookOnly ? null : body.maxUses!,
          createdBy: user._id,
          createdAt: now,
        })
        .returning();
      return { result: inserted!, version: "unchanged" };
    },
  });
  return toLink(deps, row);
}

/** The session's links, newest first, to its creator. */
export async function listLinks(
  deps: Pick<SessionDeps, "db" | "media" | "linkKey">,
  sessionId: string,
  userId: string,
) {
  await accessSession(deps, sessionId, userId, "session.links");
  const rows = await deps.db
    .select()
    .from(inviteLinks)
    .where(eq(inviteLinks.sessionId, sessionId))
    .orderBy(desc(inviteLinks.createdAt));
  return rows.map((row) => toLink(deps, row));
}

/**
 * Revokes a link (an ended session's too); like making one, no entry and the same version. A
 * look-only link's open views close at once, on every instance.
 */
export async function revokeLink(
  deps: SessionDeps,
  sessionId: string,
  userId: string,
  linkId: string,
) {
  const { result: row } = await writeSession(deps.db, deps, {
    sessionId,
    userId,
    action: "session.links",
    active: false,
    change: async ({ tx, now }) => {
      await tx
        .update(inviteLinks)
        .set({ revokedAt: now })
        .where(
          and(
            eq(inviteLinks.id, linkId),
            eq(inviteLinks.sessionId, sessionId),
            isNull(inviteLinks.revokedAt),
          ),
        );
      const [found] = await tx
        .select()
        .from(inviteLinks)
        .where(and(eq(inviteLinks.id, linkId), eq(inviteLinks.sessionId, sessionId)));
      if (!found) throw linkNotFound();
      return { result: found, version: "unchanged" };
    },
  });
  if (row.lookOnly) deps.events.publish({ linkGone: { linkId: row.id } });
  return toLink(deps, row);
}

/** A joining link by its token: a look-only link joins nobody, so it is not found here. */
async function findLink(deps: Pick<SessionDeps, "db">, token: string) {
  if (!TOKEN_PATTERN.test(token)) throw linkNotFound();
  const [found] = await deps.db
    .select({ link: inviteLinks, session: sessions, creatorName: users.name })
    .from(inviteLinks)
    .innerJoin(sessions, eq(sessions.id, inviteLinks.sessionId))
    .innerJoin(users, eq(users.id, sessions.creatorId))
    .where(and(eq(inviteLinks.tokenHash, sha256(token)), eq(inviteLinks.lookOnly, false)));
  if (!found) throw linkNotFound();
  return found;
}

/** What the link leads to, for the /join page: never the code or the passcode. */
export async function previewLink(
  deps: Pick<SessionDeps, "db" | "clock">,
  token: string,
): Promise<InvitePreview> {
  const { clock } = deps;
  const { link, session, creatorName } = await findLink(deps, token);
  const refused =
    session.status !== "active"
      ? new AppError(410, ErrorCode.LINK_EXPIRED, "This session has ended.")
      : gone(link, clock.now());
  if (refused) throw refused;
  return {
    sessionName: session.name,
    creatorName,
    role: link.role,
    expiresAt: link.expiresAt.toISOString(),
  };
}

/**
 * Joins with a link: one transaction claims a use (a conditional update, so 50 parallel accepts
 * of a 5-use link make exactly 5 members) and adds the member; an existing member changes
 * nothing and gets 409 (a pending request becomes the link's role).
 */
export async function acceptLink(
  deps: Pick<SessionDeps, "db" | "clock" | "events">,
  token: string,
  user: User,
) {
  const { db, clock } = deps;
  const { link, session } = await findLink(deps, token);
  const now = clock.now();
  if (session.status !== "active") {
    throw new AppError(410, ErrorCode.LINK_EXPIRED, "This session has ended.");
  }
  const [existing] = await db
    .select({ role: sessionMembers.role })
    .from(sessionMembers)
    .where(and(eq(sessionMembers.sessionId, session.id), eq(sessionMembers.userId, user._id)));
  if (existing && existing.role !== "pending") {
    throw conflict("You are already in this session.");
  }
  const refused = gone(link, now);
  if (refused) throw refused;
  const ended = () => new AppError(410, ErrorCode.LINK_EXPIRED, "This session has ended.");
  // Joining waits behind a checkout or an end, and then finds the session over.
  await writeSession(db, deps, {
    sessionId: session.id,
    userId: user._id,
    action: null,
    ended,
    change: async ({ tx }) => {
      const [claimed] = await tx
        .update(inviteLinks)
        .set({ uses: sql`${inviteLinks.uses} + 1` })
        .where(
          and(
            eq(inviteLinks.id, link.id),
            isNull(inviteLinks.revokedAt),
            gt(inviteLinks.expiresAt, now),
            lt(inviteLinks.uses, inviteLinks.maxUses),
          ),
        )
        .returning({ id: inviteLinks.id });
      if (!claimed) {
        const [fresh] = await tx.select().from(inviteLinks).where(eq(inviteLinks.id, link.id));
        throw gone(fresh!, now) ?? linkNotFound();
      }
      const added = await tx
        .insert(sessionMembers)
        .values({ sessionId: session.id, userId: user._id, role: link.role, createdAt: now })
        .onConflictDoUpdate({
          target: [sessionMembers.sessionId, sessionMembers.userId],
          set: { role: link.role },
          setWhere: eq(sessionMembers.role, "pending"),
        })
        .returning({ role: sessionMembers.role });
      // Already a member (joined another way meanwhile): the use is given back by the rollback.
      if (added.length === 0) throw conflict("You are already in this session.");
      return {
        result: null,
        activity: { type: "member.joined", details: { role: link.role, via: "link" } },
      };
    },
    events: (_, row) => [toMembers("member.joined", row, { users: [user._id] })],
  });
  return { sessionId: session.id };
}
