import { useQuery } from "@tanstack/react-query";
import { profileApi, profileKeys } from "../../api/profile-api.ts";

/** GET /profile/me (the server creates an empty profile on first read). */
export function useMyProfile() {
  return useQuery({
    queryKey: profileKeys.me(),
    queryFn: ({ signal }) => profileApi.me(signal),
  });
}
