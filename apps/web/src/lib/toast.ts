import type { ToastContent, ToastOptions } from "react-toastify/unstyled";

/**
 * The app's toasts (bottom-right, auto-closing), with react-toastify's API for the kinds the app uses.
 * The library is loaded on first use rather than with the first page
 * (docs/decisions/013-first-load.md): a toast is never the first thing drawn, and the container
 * that shows them (app/toasts.tsx) loads right after the page starts. Toasts keep the order they
 * were raised in (each waits on the same import).
 */
type Show = (content: ToastContent, options?: ToastOptions) => void;

const library = () => import("react-toastify/unstyled");

function show(kind: "success" | "error" | "info" | "warning"): Show {
  return (content, options) => {
    void library().then(({ toast: raise }) => raise[kind](content, options));
  };
}

export const toast = {
  success: show("success"),
  error: show("error"),
  info: show("info"),
  warning: show("warning"),
  warn: show("warning"),
  /** A toast of the app's own look (content and buttons of its own, such as Undo). */
  plain: ((content, options) => {
    void library().then(({ toast: raise }) => raise(content, options));
  }) as Show,
  dismiss: (toastId: string) => {
    void library().then(({ toast: raise }) => raise.dismiss(toastId));
  },
};
