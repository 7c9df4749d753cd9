import { useNavigate } from "../../lib/router.tsx";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "../../lib/toast.ts";
import { sessionKeys } from "../../api/sessions-api.ts";
import { announceCreated, createSession, creationFailedMessage } from "./create-session.ts";

/** The sessions page's create form: toast, then the new session's lobby. */
export function useCreateSession(userId: string | undefined) {
  const navigate = useNavigate();
  const client = useQueryClient();
  return useMutation({
    mutationFn: createSession,
    onSuccess: ({ id, response }) => {
      announceCreated(userId, id, response.message);
      void client.invalidateQueries({ queryKey: sessionKeys.all });
      navigate(`/session/${encodeURIComponent(id)}`);
    },
    onError: (error) => {
      toast.error(creationFailedMessage(error), { autoClose: 8000 });
    },
  });
}
