/**
 * Invite links and the creator's hold on the member list (DESIGN section 9, "Membership"):
 * links that make a member without approval, removing a member, handing the session over and a
 * fresh code. Every change bumps the session's version and is told to its members live.
 */
import crypto from "node:crypto";
import {
  ErrorCode,
  INVITE_TOKEN_LENGTH,
  type CreateInviteLinkBody,
  type InviteLink,
  type InvitePreview,
  type Session,
  type User,
} from "@cartner/contract";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { inviteLinks, sessionMembers, sessions, users } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { AppError, conflict, isUniqueViolation, notFound } from "../../lib/errors.ts";
import type { Media } from "../../lib/media.ts";
import type { EventBus } from "../realtime/bus.ts";
import { announceActivity, record } from "./activity.ts";
import { newSessionCode, newPasscode } from "./codes.ts";
import {
  bumpVersion,
  lockForWrite,
  lockSession,
  type SessionRow,
  type SessionService,
} from "./service.ts";

type LinkRow = typeof inviteLinks.$inferSelect;

const linkNotFound = () => notFound("Invite link not found");
const TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${INVITE_TOKEN_LENGTH}}$`);
const sha256 = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** Why a link no longer works: API.md's 410 codes. */
function gone(link: LinkRow, now: Date): AppError | null {
  if (link.revokedAt)
    return new AppError(410, ErrorCode.LINK_REVOKED, "This invite link was revoked.");
  if (link.expiresAt <= now)
    return new AppError(410, ErrorCode.LINK_EXPIRED, "This invite link has expired.");
  if (link.uses >= link.maxUses) {
    return new AppError(
      410,
      ErrorCode.LINK_USED_UP,
      "This invite link has been used as often as it may.",
    );
  }
  return null;
}

export function createLinkService(deps: {
  db: Db;
  clock: Clock;
  events: Pick<EventBus, "publish">;
  media: Media;
  sessions: SessionService;
  /** Seals the token for the creator's list (AES-256-GCM); only its hash is looked up. */
  linkKey: Buffer;
}) {
  const { db, clock, events, media, linkKey } = deps;
  const { access, announce, view } = deps.sessions;

  function seal(token: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", linkKey, iv);
    const sealed = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
  }

  function unseal(value: string): string {
    const raw = Buffer.from(value, "base64url");
    const decipher = crypto.createDecipheriv("aes-256-gcm", linkKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }

  function toLink(row: LinkRow): InviteLink {
    const token = unseal(row.tokenSealed);
    return {
      _id: row.id,
      url: media.page(`/join/${token}`),
      token,
      role: row.role,
      expiresAt: row.expiresAt.toISOString(),
      maxUses: row.maxUses,
      uses: row.uses,
      revoked: row.revokedAt !== null,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async function createLink(sessionId: string, user: User, body: CreateInviteLinkBody) {
    const now = clock.now();
    // 128 random bits, 22 base64url characters.
    const token = crypto.randomBytes(16).toString("base64url");
    const row = await db.transaction(async (tx) => {
      await lockForWrite(tx, sessionId, user._id, "session.links");
      const [inserted] = await tx
        .insert(inviteLinks)
        .values({
          sessionId,
          tokenHash: sha256(token),
          tokenSealed: seal(token),
          role: body.role,
          expiresAt: new Date(now.getTime() + body.expiresInHours * 3_600_000),
          maxUses: body.maxUses,
          createdBy: user._id,
          createdAt: now,
        })
        .returning();
      return inserted!;
    });
    return toLink(row);
  }

  async function listLinks(sessionId: string, userId: string) {
    await access(sessionId, userId, "session.links");
    const rows = await db
      .select()
      .from(inviteLinks)
      .where(eq(inviteLinks.sessionId, sessionId))
      .orderBy(desc(inviteLinks.createdAt));
    return rows.map(toLink);
  }

  async function revokeLink(sessionId: string, userId: string, linkId: string) {
    await access(sessionId, userId, "session.links");
    await db
      .update(inviteLinks)
      .set({ revokedAt: clock.now() })
      .where(
        and(
          eq(inviteLinks.id, linkId),
          eq(inviteLinks.sessionId, sessionId),
          isNull(inviteLinks.revokedAt),
        ),
      );
    const [row] = await db
      .select()
      .from(inviteLinks)
      .where(and(eq(inviteLinks.id, linkId), eq(inviteLinks.sessionId, sessionId)));
    if (!row) throw linkNotFound();
    return toLink(row);
  }

  async function findLink(token: string) {
    if (!TOKEN_PATTERN.test(token)) throw linkNotFound();
    const [found] = await db
      .select({ link: inviteLinks, session: sessions, creatorName: users.name })
      .from(inviteLinks)
      .innerJoin(sessions, eq(sessions.id, inviteLinks.sessionId))
      .innerJoin(users, eq(users.id, sessions.creatorId))
      .where(eq(inviteLinks.tokenHash, sha256(token)));
    if (!found) throw linkNotFound();
    return found;
  }

  /** What the link leads to, for the /join page: never the code or the passcode. */
  async function preview(token: string): Promise<InvitePreview> {
    const { link, session, creatorName } = await findLink(token);
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
  async function accept(token: string, user: User) {
    const { link, session } = await findLink(token);
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
    const version = await db.transaction(async (tx) => {
      // Joining waits behind a checkout or an end, and then finds the session over.
      const locked = await lockSession(tx, session.id);
      if (locked?.status !== "active") {
        throw new AppError(410, ErrorCode.LINK_EXPIRED, "This session has ended.");
      }
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
      await record(tx, {
        sessionId: session.id,
        actorId: user._id,
        type: "member.joined",
        details: { role: link.role, via: "link" },
        at: now,
      });
      return (await bumpVersion(tx, session.id, now)).version;
    });
    announce("member.joined", session.id, version, [user._id]);
    announceActivity(events, session.id);
    return { sessionId: session.id };
  }

  /** After commit: tells the members (and `users`) what changed; answers the session. */
  function changed(
    row: SessionRow,
    viewerId: string,
    type: "member.removed" | "session.updated",
    users: string[] = [],
    userId?: string,
  ): Promise<Session> {
    events.publish({
      event: { type, sessionId: row.id, version: row.version, ...(userId ? { userId } : {}) },
      members: row.id,
      users,
    });
    announceActivity(events, row.id);
    return view(row, viewerId);
  }

  /**
   * Removes a member (pending requests included): their access ends at once (every later call
   * is a 404, and the live channel stops telling them anything), and they are told so. Their
   * cart lines stay.
   */
  async function removeMember(sessionId: string, actorId: string, targetId: string) {
    const now = clock.now();
    const row = await db.transaction(async (tx) => {
      await lockForWrite(tx, sessionId, actorId, "session.manageMembers");
      if (targetId === actorId) {
        throw conflict("You cannot remove yourself; hand the session over or end it.");
      }
      const gone = await tx
        .delete(sessionMembers)
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, targetId)))
        .returning({ role: sessionMembers.role });
      if (gone.length === 0) throw notFound("Member not found");
      const [who] = await tx.select({ name: users.name }).from(users).where(eq(users.id, targetId));
      await record(tx, {
        sessionId,
        actorId,
        type: "member.removed",
        details: { member: who?.name ?? "", memberId: targetId },
        at: now,
      });
      return bumpVersion(tx, sessionId, now);
    });
    return changed(row, actorId, "member.removed", [targetId], targetId);
  }

  /** Hands the session to a participant: they become its creator, the old one a participant. */
  async function transfer(sessionId: string, actorId: string, targetId: string) {
    const now = clock.now();
    const row = await db.transaction(async (tx) => {
      await lockForWrite(tx, sessionId, actorId, "session.transfer");
      if (targetId === actorId) throw conflict("You already own this session.");
      const [target] = await tx
        .select({ role: sessionMembers.role })
        .from(sessionMembers)
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, targetId)));
      if (!target) throw notFound("Member not found");
      if (target.role !== "participant") {
        throw conflict("Hand the session over to a participant (make them one first).");
      }
      await tx.update(sessions).set({ creatorId: targetId }).where(eq(sessions.id, sessionId));
      await tx
        .update(sessionMembers)
        .set({ role: "creator" })
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, targetId)));
      await tx
        .update(sessionMembers)
        .set({ role: "participant" })
        .where(and(eq(sessionMembers.sessionId, sessionId), eq(sessionMembers.userId, actorId)));
      const [who] = await tx.select({ name: users.name }).from(users).where(eq(users.id, targetId));
      await record(tx, {
        sessionId,
        actorId,
        type: "member.role",
        details: { member: who?.name ?? "", memberId: targetId, role: "creator" },
        at: now,
      });
      return bumpVersion(tx, sessionId, now);
    });
    return changed(row, actorId, "session.updated");
  }

  /** A new code, and a new passcode when the session has one; members keep their access. */
  async function rotateCode(sessionId: string, actorId: string) {
    for (let attempt = 0; ; attempt++) {
      try {
        const now = clock.now();
        const row = await db.transaction(async (tx) => {
          const { session } = await lockForWrite(tx, sessionId, actorId, "session.rotateCode");
          await tx
            .update(sessions)
            .set({
              code: newSessionCode(),
              ...(session.passcode !== null ? { passcode: newPasscode() } : {}),
            })
            .where(eq(sessions.id, sessionId));
          // Never the code itself: the log is for every member, viewers included.
          await record(tx, {
            sessionId,
            actorId,
            type: "session.updated",
            details: { changed: session.passcode !== null ? ["code", "passcode"] : ["code"] },
            at: now,
          });
          return bumpVersion(tx, sessionId, now);
        });
        return changed(row, actorId, "session.updated");
      } catch (error) {
        if (attempt < 5 && isUniqueViolation(error, "sessions_code_unique")) continue;
        throw error;
      }
    }
  }

  return { createLink, listLinks, revokeLink, preview, accept, removeMember, transfer, rotateCode };
}

export type LinkService = ReturnType<typeof createLinkService>;
