import { describe, expect, it } from "vitest";
import { getPendingSession, getToken, getUser, setPendingSession, setUser } from "./storage.ts";

describe("storage", () => {
  it("never throws on bad JSON and treats it as absent", () => {
    window.localStorage.setItem("user", "{not json");
    window.localStorage.setItem("pendingSession", "[1,");
    expect(getUser()).toBeNull();
    expect(getPendingSession()).toBeNull();
  });

  it("ignores well-formed values of the wrong shape", () => {
    window.localStorage.setItem("user", JSON.stringify({ name: "No id" }));
    window.localStorage.setItem(
      "pendingSession",
      JSON.stringify({ sessionName: "x", sessionType: "Party", participants: "2" }),
    );
    expect(getUser()).toBeNull();
    expect(getPendingSession()).toBeNull();
  });

  it("round-trips a pending session and treats an empty token as none", () => {
    setPendingSession({ sessionName: "Trip", sessionType: "Family", participants: "3+" });
    expect(getPendingSession()).toEqual({
      sessionName: "Trip",
      sessionType: "Family",
      participants: "3+",
    });
    window.localStorage.setItem("token", "");
    expect(getToken()).toBeNull();
  });
});

describe("the stored user", () => {
  it("keeps the account's roles, and reads one stored before accounts had roles as having none", () => {
    setUser({ _id: "u1", name: "Ann", email: "ann@example.com", roles: ["operator"] });
    expect(getUser()?.roles).toEqual(["operator"]);
    window.localStorage.setItem(
      "user",
      JSON.stringify({ _id: "u1", name: "Ann", email: "ann@example.com" }),
    );
    expect(getUser()).toEqual({ _id: "u1", name: "Ann", email: "ann@example.com", roles: [] });
  });
});
