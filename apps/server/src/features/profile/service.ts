import { canonicalTimeZone, type Profile } from "@cartner/contract";
import { and, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.ts";
import { cartLines, carts, profiles, sessionMembers, sessions, users } from "../../db/schema.ts";
import type { Clock } from "../../lib/clock.ts";
import { invalidFields, notFound } from "../../lib/errors.ts";
import type { Media } from "../../lib/media.ts";
import { isMemberRole } from "../../lib/permissions.ts";

export interface ProfileChanges {
  name?: string | undefined;
  bio?: string | undefined;
  location?: string | undefined;
  languages?: string[] | undefined;
  occupation?: string | undefined;
  phoneNumber?: string | undefined;
  avatarWebp?: Buffer | undefined;
}

export function createProfileService(deps: {
  db: Db;
  clock: Clock;
  media: Media;
  onNameChanged?: (userId: string) => void;
}) {
  const { db, clock, media, onNameChanged } = deps;

  async function ensure(userId: string) {
    await db.insert(profiles).values({ userId }).onConflictDoNothing();
  }

  async function get(userId: string): Promise<Profile> {
    await ensure(userId);
    const [row] = await db
      .select({ profile: profiles, user: users })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(eq(profiles.userId, userId));
    if (!row) throw notFound("Profile not found");
    const joined = await db
      .select({
        sessionId: sessions.id,
        sessionName: sessions.name,
        status: sessions.status,
        cartId: carts.id,
        cartStatus: carts.status,
        itemCount: sql<string>`coalesce((select sum(${cartLines.quantity}) from ${cartLines} where ${cartLines.cartId} = ${carts.id}), 0)`,
      })
      .from(sessionMembers)
      .innerJoin(sessions, eq(sessions.id, sessionMembers.sessionId))
      .innerJoin(carts, eq(carts.sessionId, sessions.id))
      .where(and(eq(sessionMembers.userId, userId), isMemberRole(sessionMembers.role)))
      .orderBy(desc(sessions.updatedAt));
    const { profile, user } = row;
    return {
      avatar: media.userAvatar(user.id, profile.avatarUpdatedAt),
      bio: profile.bio,
      location: profile.location,
      languages: profile.languages,
      occupation: profile.occupation,
      phoneNumber: profile.phoneNumber,
      joinedAt: user.createdAt.toISOString(),
      timeZone: user.timeZone,
      user: { _id: user.id, name: user.name, email: user.email },
      sessions: joined.map((j) => ({
        _id: j.sessionId,
        sessionName: j.sessionName,
        status: j.status,
      })),
      carts: joined.map((j) => ({
        _id: j.cartId,
        sessionId: { _id: j.sessionId, sessionName: j.sessionName },
        itemCount: Number(j.itemCount),
        status: j.cartStatus,
      })),
    };
  }

  /** Only the fields given change. */
  async function update(userId: string, changes: ProfileChanges): Promise<Profile> {
    await ensure(userId);
    const now = clock.now();
    const { name, avatarWebp, ...fields } = changes;
    const set: Partial<typeof profiles.$inferInsert> = { updatedAt: now };
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) (set as Record<string, unknown>)[key] = value;
    }
    if (avatarWebp) {
      set.avatarWebp = avatarWebp;
      set.avatarUpdatedAt = now;
    }
    await db.transaction(async (tx) => {
      await tx.update(profiles).set(set).where(eq(profiles.userId, userId));
      if (name !== undefined)
        await tx.update(users).set({ name, updatedAt: now }).where(eq(users.id, userId));
    });
    if (name !== undefined) onNameChanged?.(userId);
    return get(userId);
  }

  async function avatar(userId: string): Promise<Buffer | null> {
    const [row] = await db
      .select({ avatar: profiles.avatarWebp })
      .from(profiles)
      .where(eq(profiles.userId, userId));
    return row?.avatar ?? null;
  }

  /** A small public card, for people who share a session with that user (or themselves). */
  async function publicUser(viewerId: string, userId: string) {
    if (viewerId !== userId) {
      const mine = alias(sessionMembers, "mine");
      const [shared] = await db
        .select({ sessionId: mine.sessionId })
        .from(mine)
        .innerJoin(
          sessionMembers,
          and(eq(sessionMembers.sessionId, mine.sessionId), eq(sessionMembers.userId, userId)),
        )
        .where(
          and(
            eq(mine.userId, viewerId),
            isMemberRole(mine.role),
            isMemberRole(sessionMembers.role),
          ),
        )
        .limit(1);
      if (!shared) throw notFound("User not found");
    }
    const [row] = await db
      .select({ user: users, avatarUpdatedAt: profiles.avatarUpdatedAt })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, userId));
    if (!row) throw notFound("User not found");
    return {
      user: {
        _id: row.user.id,
        name: row.user.name,
        avatar: media.userAvatar(row.user.id, row.avatarUpdatedAt),
        joinedAt: row.user.createdAt.toISOString(),
      },
    };
  }

  /** The zone the person reads times in: every time the server sends them is stated in it. */
  async function timeZoneOf(userId: string): Promise<string> {
    const [row] = await db
      .select({ timeZone: users.timeZone })
      .from(users)
      .where(eq(users.id, userId));
    return row?.timeZone ?? "UTC";
  }

  /** PUT /users/me/time-zone: the person's own choice, kept over the browser's from now on. */
  async function setTimeZone(userId: string, name: string): Promise<{ timeZone: string }> {
    const timeZone = canonicalTimeZone(name);
    if (!timeZone) throw invalidFields({ timeZone: "Not a known time zone" });
    await db
      .update(users)
      .set({ timeZone, timeZoneChosen: true, updatedAt: clock.now() })
      .where(eq(users.id, userId));
    return { timeZone };
  }

  return { get, update, avatar, publicUser, timeZoneOf, setTimeZone };
}

export type ProfileService = ReturnType<typeof createProfileService>;
