import {
  DEFAULT_SPLIT_POLICY,
  type Invite,
  type JoinRequest,
  type Member,
  type Session,
} from "@cartner/contract";
import { testUser } from "./render-app.tsx";

export const ben = { _id: "b0000000-0000-4000-8000-000000000002", name: "Ben Brown" };
export const cleo = { _id: "c0000000-0000-4000-8000-000000000003", name: "Cleo Chu" };

export function member(user: { _id: string; name: string }, role: Member["role"]): Member {
  return {
    userId: user._id,
    name: user.name,
    avatar: `/api/avatars/${user._id}.svg`,
    role,
    budget: null,
    ready: false,
    shareChanged: false,
    budgetMode: "warn",
    child: false,
  };
}

let counter = 0;

/** A session as the API returns it; the test user is its creator unless members say otherwise. */
export function makeSession(overrides: Partial<Session> = {}): Session {
  counter += 1;
  const id = overrides._id ?? `s-${counter}`;
  return {
    _id: id,
    id,
    sessionName: `Session ${counter}`,
    sessionType: "Friends",
    participants: "3+",
    status: "active",
    budget: null,
    sessionCode: `CODE${String(counter).padStart(4, "0")}`,
    passcode: "sesame",
    hasPasscode: true,
    creator: { _id: testUser._id, name: testUser.name, avatar: "/api/avatars/ada.svg" },
    invitedUsers: [member(testUser, "creator")],
    cartId: `c-${id}`,
    cart: { _id: `c-${id}`, totalPrice: 0, itemCount: 0 },
    splitPolicy: DEFAULT_SPLIT_POLICY,
    checkoutBy: "creator",
    approvers: [],
    series: null,
    previousSessionId: null,
    nextSessionId: null,
    deadline: null,
    version: 1,
    createdAt: "2025-05-01T10:00:00.000Z",
    updatedAt: "2025-05-01T10:00:00.000Z",
    ...overrides,
  };
}

/** The test user is a member with this role in a session Ben created. */
export function sessionAs(role: "participant" | "viewer", overrides: Partial<Session> = {}) {
  return makeSession({
    creator: { _id: ben._id, name: ben.name, avatar: "/api/avatars/ben.svg" },
    invitedUsers: [member(ben, "creator"), member(testUser, role)],
    ...(role === "viewer" ? { passcode: undefined } : {}),
    ...overrides,
  });
}

export function makeInvite(overrides: Partial<Invite> = {}): Invite {
  return {
    _id: "i-1",
    sessionName: "Beach trip",
    sessionCode: "BEACH123",
    role: "viewer",
    invitedBy: { _id: ben._id, name: ben.name, avatar: "/api/avatars/ben.svg" },
    createdAt: "2025-05-02T10:00:00.000Z",
    ...overrides,
  };
}

export function makeJoinRequest(overrides: Partial<JoinRequest> = {}): JoinRequest {
  return {
    userId: cleo._id,
    email: "cleo@example.com",
    name: cleo.name,
    avatar: "/api/avatars/cleo.svg",
    requestedAt: "2025-05-02T11:00:00.000Z",
    ...overrides,
  };
}
