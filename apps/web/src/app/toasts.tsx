import { ToastContainer } from "react-toastify/unstyled";
import { TOAST_AUTO_CLOSE_MS } from "@cartner/contract";

/**
 * Bottom-right (across the bottom on a phone, react-toastify's own narrow layout), 5 s by
 * default, Alt+T focuses the notifications. Not at the top: the sticky header's bell and account
 * menu are there, and a toast over them hid them while it showed.
 */
const TOAST_POSITION = "bottom-right";

export function Toasts() {
  return (
    <ToastContainer
      position={TOAST_POSITION}
      autoClose={TOAST_AUTO_CLOSE_MS}
      newestOnTop
      closeOnClick={false}
      pauseOnFocusLoss
      pauseOnHover
      draggable={false}
      theme="light"
      hotKeys={(event) => event.altKey && event.code === "KeyT"}
    />
  );
}
