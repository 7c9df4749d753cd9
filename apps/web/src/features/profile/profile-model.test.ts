import { describe, expect, it } from "vitest";
import {
  CredentialMessage,
  buildProfileFormData,
  isProfileEmpty,
  joinedYear,
  splitLanguages,
  validateCredentials,
  type CredentialsDraft,
  type ProfileDraft,
} from "./profile-model.ts";
import { credentialsUpdatedMessage } from "../../shared/credentials.ts";

describe("splitLanguages", () => {
  it("splits on commas, trims, and drops empty entries", () => {
    expect(splitLanguages(" English,French ,, Swahili ,")).toEqual([
      "English",
      "French",
      "Swahili",
    ]);
    expect(splitLanguages("")).toEqual([]);
    expect(splitLanguages(" , ")).toEqual([]);
  });
});

describe("buildProfileFormData", () => {
  const values = {
    name: " Ada ",
    bio: "Hi",
    location: "London",
    languages: "English, French",
    occupation: "Maths",
    phoneNumber: "+44 1",
  };
  const none = {
    name: false,
    bio: false,
    location: false,
    languages: false,
    occupation: false,
    phoneNumber: false,
    avatar: false,
  };

  it("holds only the ticked fields, languages as a JSON list", () => {
    const draft: ProfileDraft = {
      values,
      avatar: null,
      enabled: { ...none, name: true, languages: true },
    };
    const form = buildProfileFormData(draft);
    expect(form && [...form.keys()]).toEqual(["name", "languages"]);
    expect(form?.get("name")).toBe("Ada");
    expect(form?.get("languages")).toBe('["English","French"]');
  });

  it("adds the avatar file only when its box is ticked", () => {
    const file = new File(["x"], "me.png", { type: "image/png" });
    expect(buildProfileFormData({ values, avatar: file, enabled: none })).toBeNull();
    const form = buildProfileFormData({ values, avatar: file, enabled: { ...none, avatar: true } });
    expect((form?.get("avatar") as File).name).toBe("me.png");
  });
});

describe("validateCredentials", () => {
  const base: CredentialsDraft = {
    changeEmail: false,
    changePassword: false,
    email: "",
    currentPassword: "",
    newPassword: "",
  };

  it("needs a ticked box", () => {
    expect(validateCredentials(base)).toEqual({ form: CredentialMessage.nothingChecked });
  });

  it("uses SPEC's three messages", () => {
    expect(validateCredentials({ ...base, changeEmail: true, currentPassword: "x" }).email).toBe(
      "Please enter a new email.",
    );
    expect(
      validateCredentials({ ...base, changePassword: true, currentPassword: "old-pass" }).password,
    ).toBe("Please enter both current and new password.");
    expect(
      validateCredentials({
        ...base,
        changePassword: true,
        currentPassword: "a",
        newPassword: "12345",
      }).password,
    ).toBe("New password must be at least 6 characters.");
    expect(
      validateCredentials({
        ...base,
        changePassword: true,
        currentPassword: "a",
        newPassword: "123456",
      }),
    ).toEqual({});
  });
});

describe("profile helpers", () => {
  it("counts a profile without bio, location, occupation and languages as empty", () => {
    const empty = { bio: " ", location: "", occupation: "", languages: [] };
    expect(isProfileEmpty(empty)).toBe(true);
    expect(isProfileEmpty({ ...empty, languages: ["English"] })).toBe(false);
  });

  it("reads the joined year and names what an update changed", () => {
    expect(joinedYear("2024-03-05T10:00:00.000Z")).toBe("2024");
    expect(joinedYear("nonsense")).toBe("");
    expect(credentialsUpdatedMessage({ email: false, password: true })).toBe(
      "Password updated successfully.",
    );
    expect(credentialsUpdatedMessage({ email: true, password: false })).toBe(
      "Email updated successfully.",
    );
  });
});
