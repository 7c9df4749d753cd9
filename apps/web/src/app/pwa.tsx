import { toast } from "../lib/toast.ts";
import { registerSW } from "virtual:pwa-register";

export const UPDATE_READY_MESSAGE = "A new version of Cartner is ready.";

/** Checks for a new deployment this often while a tab stays open. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

function UpdatePrompt({ onReload }: { onReload: () => void }) {
  return (
    <div className="flex flex-col gap-2">
      <span>{UPDATE_READY_MESSAGE}</span>
      <button
        type="button"
        onClick={onReload}
        className="self-start rounded-lg bg-primary-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-primary-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600"
      >
        Reload to update
      </button>
    </div>
  );
}

/**
 * Registers the service worker (/sw.js) once the page has loaded. A new version waits until the
 * user chooses to reload, so nobody loses what they were typing to an update.
 */
export function registerServiceWorker(): void {
  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh() {
      toast.info(<UpdatePrompt onReload={() => void updateSW(true)} />, {
        toastId: "app-update",
        autoClose: false,
        closeOnClick: false,
      });
    },
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) void registration.update();
      }, UPDATE_CHECK_MS);
    },
    onRegisterError(error: unknown) {
      console.error("Service worker registration failed:", error);
    },
  });
}
