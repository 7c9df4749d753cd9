import { ConfirmDialog } from "../components/ui/index.ts";

/** The one name for ending a session: the lobby's button says it, and so does the cart page's. */
export const END_SESSION_LABEL = "End Session";

export function endSessionTitle(sessionName: string): string {
  return `End “${sessionName}”?`;
}

/**
 * The one confirm before ending a session, wherever it is offered (lobby, session cards, cart
 * page): ending is one action with one name, whichever page it starts from.
 */
export function EndSessionDialog({
  sessionName,
  open,
  onConfirm,
  onCancel,
}: {
  sessionName: string;
  open: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title={endSessionTitle(sessionName)}
      description="The session ends for everyone: its cart stops changing and moves, read-only, to Cart History. This cannot be undone."
      confirmLabel={END_SESSION_LABEL}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
