import type { Profile } from "@cartner/contract";
import { testUser } from "../../test/render-app.tsx";

export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    avatar: `/api/users/${testUser._id}/avatar`,
    bio: "I plan the group dinners.",
    location: "London",
    languages: ["English", "French"],
    occupation: "Mathematician",
    phoneNumber: "",
    joinedAt: "2024-03-05T10:00:00.000Z",
    timeZone: "Europe/London",
    user: { ...testUser },
    sessions: [{ _id: "s-1", sessionName: "Groceries", status: "active" }],
    carts: [
      {
        _id: "c-1",
        sessionId: { _id: "s-1", sessionName: "Groceries" },
        itemCount: 3,
        status: "active",
      },
    ],
    ...overrides,
  };
}

export const emptyProfile = (): Profile =>
  makeProfile({ bio: "", location: "", languages: [], occupation: "", carts: [], sessions: [] });
