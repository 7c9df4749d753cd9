import { useEffect, useRef, useState, type FormEvent } from "react";
import { useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { ArrowLeft, ImageUp, UserRoundPen } from "lucide-react";
import { AVATAR_MAX_BYTES, type Profile } from "@cartner/contract";
import {
  Avatar,
  Button,
  ButtonLink,
  FormActions,
  Card,
  Container,
  FormAlert,
  Input,
} from "../../components/ui/index.ts";
import { controlClasses } from "../../components/ui/Input.tsx";
import { ApiError } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { cn } from "../../lib/cn.ts";
import { getUser, setUser } from "../../lib/storage.ts";
import { CheckField } from "./CheckField.tsx";
import { useMyProfile, useUpdateProfile } from "../../api/profile.ts";
import {
  AVATAR_ACCEPT,
  avatarProblem,
  buildProfileFormData,
  isProfileEmpty,
  type ProfileDraft,
  type ProfileField,
  type ProfileTextField,
} from "./profile-model.ts";
import { DevicesCard, YourDataCard } from "./AccountCards.tsx";
import { PaymentDetailsCard } from "./PaymentDetailsCard.tsx";
import { TimeZoneCard } from "./TimeZoneCard.tsx";

export const PROFILE_UPDATED_MESSAGE = "Profile updated successfully!";
export const PROFILE_UPDATE_FAILED_MESSAGE = "Failed to update profile.";
export const NOTHING_TO_UPDATE_MESSAGE =
  "Nothing to save yet: tick the box of each field you want to update.";

/** /editme: each field has a checkbox that enables it, and only ticked fields are sent. */
export function EditProfilePage() {
  const profile = useMyProfile();
  return (
    <Container className="py-8 sm:py-12">
      <title>Edit Profile — Cartner</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-6">
        <header className="flex flex-col gap-2">
          <ButtonLink to="/profile" variant="link" className="self-start text-sm">
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to profile
          </ButtonLink>
          <h1 className="flex items-center gap-3 text-3xl font-extrabold tracking-tight sm:text-4xl">
            <UserRoundPen aria-hidden="true" className="size-8 shrink-0 text-primary-600" />
            Edit Profile
          </h1>
          <p className="text-slate-600">
            Tell your group about yourself. Tick a field to change it; only ticked fields are saved.
          </p>
        </header>
        {profile.isPending ? (
          <div
            role="status"
            aria-label="Loading profile"
            className="h-[36rem] animate-pulse rounded-card bg-slate-200/70"
          />
        ) : (
          <EditProfileForm profile={profile.data} />
        )}
        {/* A profile kept offline from before accounts had a zone has none: UTC until read again. */}
        {profile.data && <TimeZoneCard current={profile.data.timeZone ?? "UTC"} />}
        {/* Reachable before a profile exists too (the profile page sends empty profiles here). */}
        <PaymentDetailsCard />
        <DevicesCard />
        <YourDataCard />
      </div>
    </Container>
  );
}

const noneEnabled: Record<ProfileField, boolean> = {
  name: false,
  bio: false,
  location: false,
  languages: false,
  occupation: false,
  phoneNumber: false,
  avatar: false,
};

/**
 * Which boxes start ticked. Every field keeps its checkbox, but a newcomer (sign-up lands here
 * with an empty profile) should not meet a page of greyed-out fields: with nothing to overwrite,
 * the empty profile's fields start ticked, so they are editable at once. Name (set at sign-up)
 * and the avatar (it needs a file) stay unticked; an existing profile starts with none ticked.
 */
function initialEnabled(profile: Profile | undefined): Record<ProfileField, boolean> {
  if (profile && !isProfileEmpty(profile)) return noneEnabled;
  return {
    ...noneEnabled,
    bio: true,
    location: true,
    languages: true,
    occupation: true,
    phoneNumber: profile ? profile.phoneNumber.trim() === "" : true,
  };
}

function initialValues(profile: Profile | undefined, fallbackName: string) {
  return {
    name: profile?.user.name ?? fallbackName,
    bio: profile?.bio ?? "",
    location: profile?.location ?? "",
    languages: profile?.languages.join(", ") ?? "",
    occupation: profile?.occupation ?? "",
    phoneNumber: profile?.phoneNumber ?? "",
  } satisfies Record<ProfileTextField, string>;
}

/** A blob: URL for the chosen image (allowed by the CSP); the previous one is revoked. */
function useAvatarFile() {
  const [avatar, setAvatarState] = useState<{ file: File; url: string | undefined } | null>(null);
  const urlRef = useRef<string | undefined>(undefined);
  useEffect(
    () => () => {
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    },
    [],
  );
  function setAvatar(file: File | null) {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    const url =
      file && typeof URL.createObjectURL === "function" ? URL.createObjectURL(file) : undefined;
    urlRef.current = url;
    setAvatarState(file ? { file, url } : null);
  }
  return { avatar: avatar?.file ?? null, previewUrl: avatar?.url, setAvatar };
}

type Errors = Partial<Record<ProfileField, string>>;

function EditProfileForm({ profile }: { profile: Profile | undefined }) {
  const navigate = useNavigate();
  const { user } = useAuth();
  const [values, setValues] = useState(() => initialValues(profile, user?.name ?? ""));
  const [enabled, setEnabled] = useState(() => initialEnabled(profile));
  const { avatar, previewUrl, setAvatar } = useAvatarFile();
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const preview = enabled.avatar ? previewUrl : undefined;

  const save = useUpdateProfile({
    onSuccess: (updated) => {
      // The nav greets the user by name: keep the stored user in step with the profile.
      const stored = getUser();
      if (stored && stored._id === updated.user._id && stored.name !== updated.user.name) {
        setUser({ ...stored, name: updated.user.name });
      }
      toast.success(PROFILE_UPDATED_MESSAGE, { autoClose: 6000 });
      navigate("/profile");
    },
    onError: (error) => {
      toast.error(PROFILE_UPDATE_FAILED_MESSAGE, { autoClose: 8000 });
      if (error instanceof ApiError && error.fields && Object.keys(error.fields).length > 0) {
        setErrors(error.fields as Errors);
      } else if (error instanceof ApiError && (error.status === 413 || error.status === 415)) {
        setErrors({ avatar: error.hasServerMessage ? error.message : "Choose a smaller image." });
      } else if (error instanceof ApiError && error.hasServerMessage) {
        setFormError(error.message);
      }
    },
  });

  function toggle(field: ProfileField, on: boolean) {
    setEnabled((current) => ({ ...current, [field]: on }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFormError(null);
  }

  function setValue(field: ProfileTextField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    setFormError(null);
    const problems: Errors = {};
    if (enabled.name && values.name.trim() === "") problems.name = "Name cannot be empty.";
    if (enabled.avatar) {
      if (!avatar) problems.avatar = "Choose an image to upload.";
      else {
        const problem = avatarProblem(avatar);
        if (problem) problems.avatar = problem;
      }
    }
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      if (problems.avatar && !problems.name) fileInput.current?.focus();
      return;
    }
    const draft: ProfileDraft = { values, avatar, enabled };
    const form = buildProfileFormData(draft);
    if (!form) {
      setFormError(NOTHING_TO_UPDATE_MESSAGE);
      return;
    }
    save.mutate(form);
  }

  const text = (field: ProfileTextField) => ({
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => setValue(field, event.target.value),
  });

  return (
    <Card className="p-3 sm:p-8">
      <form
        noValidate
        onSubmit={onSubmit}
        aria-label="Edit profile"
        className="flex flex-col gap-4"
      >
        <CheckField
          label="Name"
          enabled={enabled.name}
          onToggle={(on) => toggle("name", on)}
          error={errors.name}
        >
          {(control) => <Input {...control} {...text("name")} autoComplete="name" />}
        </CheckField>

        <CheckField
          label="Bio"
          enabled={enabled.bio}
          onToggle={(on) => toggle("bio", on)}
          error={errors.bio}
          hint="A line or two your group will see."
        >
          {(control) => (
            <textarea
              {...control}
              {...text("bio")}
              rows={4}
              maxLength={500}
              className={cn(controlClasses, "h-auto min-h-24 resize-y py-2.5")}
            />
          )}
        </CheckField>

        <div className="grid gap-4 sm:grid-cols-2">
          <CheckField
            label="Location"
            enabled={enabled.location}
            onToggle={(on) => toggle("location", on)}
            error={errors.location}
          >
            {(control) => (
              <Input {...control} {...text("location")} autoComplete="address-level2" />
            )}
          </CheckField>

          <CheckField
            label="Occupation"
            enabled={enabled.occupation}
            onToggle={(on) => toggle("occupation", on)}
            error={errors.occupation}
          >
            {(control) => (
              <Input {...control} {...text("occupation")} autoComplete="organization-title" />
            )}
          </CheckField>
        </div>

        <CheckField
          label="Languages"
          enabled={enabled.languages}
          onToggle={(on) => toggle("languages", on)}
          error={errors.languages}
          hint="Separate languages with commas, e.g. English, French."
        >
          {(control) => <Input {...control} {...text("languages")} />}
        </CheckField>

        <CheckField
          label="Phone number"
          enabled={enabled.phoneNumber}
          onToggle={(on) => toggle("phoneNumber", on)}
          error={errors.phoneNumber}
        >
          {(control) => (
            <Input {...control} {...text("phoneNumber")} type="tel" autoComplete="tel" />
          )}
        </CheckField>

        <CheckField
          label="Avatar"
          enabled={enabled.avatar}
          onToggle={(on) => toggle("avatar", on)}
          error={errors.avatar}
          hint={`PNG, JPEG, WebP or GIF, up to ${AVATAR_MAX_BYTES / (1024 * 1024)} MB.`}
        >
          {(control) => (
            <div className="flex flex-wrap items-center gap-4">
              <Avatar
                seed={profile?.user._id ?? user?._id ?? "cartner"}
                name={values.name}
                src={preview ?? (profile?.avatar || undefined)}
                alt={preview ? "Preview of your new avatar" : "Your current avatar"}
                className="size-20"
              />
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <input
                  {...control}
                  ref={fileInput}
                  name="avatar"
                  type="file"
                  accept={AVATAR_ACCEPT}
                  onChange={(event) => {
                    setAvatar(event.target.files?.[0] ?? null);
                    setErrors((current) => ({ ...current, avatar: undefined }));
                  }}
                  className={cn(
                    "block w-full max-w-full text-sm text-slate-700 disabled:cursor-not-allowed disabled:opacity-60",
                    "file:mr-3 file:rounded-lg file:border-0 file:bg-primary-50 file:px-3 file:py-2 file:font-semibold file:text-primary-700 hover:file:bg-primary-100",
                  )}
                />
                {avatar ? (
                  <p className="flex items-center gap-1.5 text-sm break-all text-slate-600">
                    <ImageUp aria-hidden="true" className="size-4 shrink-0" />
                    {avatar.name}
                  </p>
                ) : null}
              </div>
            </div>
          )}
        </CheckField>

        <FormAlert message={formError} />

        <FormActions cancelTo="/profile">
          <Button type="submit" loading={save.isPending}>
            {save.isPending ? "Saving…" : "Save changes"}
          </Button>
        </FormActions>
      </form>
    </Card>
  );
}
