import { ToastContainer } from "react-toastify/unstyled";
import { TOAST_AUTO_CLOSE_MS } from "@cartner/contract";

/** Top-right, 5 s by default, Alt+T focuses the notifications. */
export function Toasts() {
  return (
    <ToastContainer
      position="top-right"
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
