import { useParams } from "../../lib/router.tsx";
import { CalendarDays } from "lucide-react";
import { Avatar, Button, Card, Container, FormAlert } from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { NotFoundPage } from "../../components/NotFoundPage.tsx";
import { usePublicProfile } from "../../api/profile.ts";
import { joinedYear } from "./profile-model.ts";

/** /user/:userId: a fellow shopper's small public profile (404 → the Page Not Found page). */
export function PublicProfilePage() {
  const { userId = "" } = useParams();
  const query = usePublicProfile(userId);

  if (userId === "" || (query.error instanceof ApiError && query.error.status === 404)) {
    return <NotFoundPage />;
  }

  return (
    <Container className="py-10 sm:py-16">
      <title>{query.data ? `${query.data.user.name} — Cartner` : "Member Profile — Cartner"}</title>
      {query.isPending ? (
        <div
          role="status"
          aria-label="Loading profile"
          className="mx-auto h-72 max-w-md animate-pulse rounded-card bg-slate-200/70"
        />
      ) : query.isError ? (
        <Card className="mx-auto flex max-w-md flex-col gap-4 p-8">
          <h1 className="text-2xl font-bold tracking-tight">Member Profile</h1>
          <FormAlert message={errorMessage(query.error, "Could not load this profile.")} />
          <Button variant="secondary" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <Card className="mx-auto flex max-w-md flex-col items-center gap-3 p-8 text-center">
          <Avatar
            seed={query.data.user._id}
            name={query.data.user.name}
            src={query.data.user.avatar || undefined}
            alt={`${query.data.user.name}'s avatar`}
            className="size-28 ring-4 ring-primary-100"
          />
          <h1 className="text-2xl font-bold tracking-tight break-words">{query.data.user.name}</h1>
          {joinedYear(query.data.user.joinedAt) ? (
            <p className="flex items-center gap-2 text-slate-600">
              <CalendarDays aria-hidden="true" className="size-4" />
              Joined in {joinedYear(query.data.user.joinedAt)}
            </p>
          ) : null}
        </Card>
      )}
    </Container>
  );
}
