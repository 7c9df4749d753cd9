import { canonicalTimeZone, type Profile } from "@cartner/contract";
import { and, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { cartLines, carts, profiles, sessionMembers, sessions, users } from "../../db/schema.ts";
import { invalidFields, notFound } from "../../lib/errors.ts";
import { isMemberRole } from "../../lib/permissions.ts";
import type { ProfileDeps } from "./deps.ts";

export interface ProfileChanges {
  name?: string | undefined;
  bio?: string | undefined;
  location?: string | undefined;
  languages?: string[] | undefined;
  occupation?: string | undefined;
  phoneNumber?: string | undefined;
  avatarWebp?: Buffer | undefined;
}

async function ensure(deps: Pick<ProfileDeps, "db">, userId: string) {
  await deps.db.insert(profiles).values({ userId }).onConflictDoNothing();
}

/** The user's own profile, with the sessions and carts they are a member of. */
export async function getProfile(
  deps: Pick<ProfileDeps, "db" | "media">,
  userId: string,
): Promise<Profile> {
  await ensure(deps, userId);
  const [row] = await deps.db
    .select({ profile: profiles, user: users })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.userId, userId));
  if (!row) throw notFound("Profile not found");
  const joined = await deps.db
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
    avatar: deps.media.userAvatar(user.id, profile.avatarUpdatedAt),
    bio: profile.bio,
    location: profile.location,
    languages: profile.languages,
    occupation: profile.occupation,
    phoneNumber: profile.phoneNumber,
    joinedAt: user.createdAt.toISOString(),
    timeZone: user.timeZone,
    user: { _id: user.id, name: user.name, email: user.email, roles: user.roles },
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
export async function updateProfile(
  deps: Pick<ProfileDeps, "db" | "clock" | "media" | "onNameChanged">,
  userId: string,
  changes: ProfileChanges,
): Promise<Profile> {
  await ensure(deps, userId);
  const now = deps.clock.now();
  const { name, avatarWebp, ...fields } = changes;
  const set: Partial<typeof profiles.$inferInsert> = { updatedAt: now };
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (set as Record<string, unknown>)[key] = value;
  }
  if (avatarWebp) {
    set.avatarWebp = avatarWebp;
    set.avatarUpdatedAt = now;
  }
  await deps.db.transaction(async (tx) => {
    await tx.update(profiles).set(set).where(eq(profiles.userId, userId));
    if (name !== undefined)
      await tx.update(users).set({ name, updatedAt: now }).where(eq(users.id, userId));
  });
  if (name !== undefined) deps.onNameChanged?.(userId);
  return getProfile(deps, userId);
}

/** The user's uploaded picture (WebP), or null without one. */
export async function avatarOf(
  deps: Pick<ProfileDeps, "db">,
  userId: string,
): Promise<Buffer | null> {
  const [row] = await deps.db
    .select({ avatar: profiles.avatarWebp })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  return row?.avatar ?? null;
}

/** A small public card, for people who share a session with that user (or themselves). */
export async function publicUser(
  deps: Pick<ProfileDeps, "db" | "media">,
  viewerId: string,
  userId: string,
) {
  if (viewerId !== userId) {
    const mine = alias(sessionMembers, "mine");
    const [shared] = await deps.db
      .select({ sessionId: mine.sessionId })
      .from(mine)
      .innerJoin(
        sessionMembers,
        and(eq(sessionMembers.sessionId, mine.sessionId), eq(sessionMembers.userId, userId)),
      )
      .where(
        and(eq(mine.userId, viewerId), isMemberRole(mine.role), isMemberRole(sessionMembers.role)),
      )
      .limit(1);
    if (!shared) throw notFound("User not found");
  }
  const [row] = await deps.db
    .select({ user: users, avatarUpdatedAt: profiles.avatarUpdatedAt })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) throw notFound("User not found");
  return {
    user: {
      _id: row.user.id,
      name: row.user.name,
      avatar: deps.media.userAvatar(row.user.id, row.avatarUpdatedAt),
      joinedAt: row.user.createdAt.toISOString(),
    },
  };
}

/** The zone the person reads times in: every time the server sends them is stated in it. */
export async function timeZoneOf(deps: Pick<ProfileDeps, "db">, userId: string): Promise<string> {
  const [row] = await deps.db
    .select({ timeZone: users.timeZone })
    .from(users)
    .where(eq(users.id, userId));
  return row?.timeZone ?? "UTC";
}

/** PUT /users/me/time-zone: the person's own choice, kept over the browser's from now on. */
export async function setTimeZone(
  deps: Pick<ProfileDeps, "db" | "clock">,
  userId: string,
  name: string,
): Promise<{ timeZone: string }> {
  const timeZone = canonicalTimeZone(name);
  if (!timeZone) throw invalidFields({ timeZone: "Not a known time zone" });
  await deps.db
    .update(users)
    .set({ timeZone, timeZoneChosen: true, updatedAt: deps.clock.now() })
    .where(eq(users.id, userId));
  return { timeZone };
}
