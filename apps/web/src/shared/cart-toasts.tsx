import { toast } from "../lib/toast.ts";
import { errorMessage } from "../lib/api.ts";

/** SPEC section 9: most toasts stay 6 to 10 s. */
export const FAILURE_AUTO_CLOSE_MS = 8000;
export const SUCCESS_AUTO_CLOSE_MS = 6000;

/** A toast's text: SPEC's message, and the server's reason (e.g. out of stock) on a second line. */
function TwoLines({ title, detail }: { title: string; detail: string }) {
  return (
    <div className="flex flex-col gap-0.5">
      <p className="font-semibold">{title}</p>
      <p className="text-sm">{detail}</p>
    </div>
  );
}

/** An error toast: `title`, plus the server's message when it has one worth showing. */
export function failureToast(title: string, error: unknown, toastId?: string): void {
  const detail = errorMessage(error, "").trim();
  const content = detail && detail !== title ? <TwoLines title={title} detail={detail} /> : title;
  toast.error(content, {
    autoClose: FAILURE_AUTO_CLOSE_MS,
    ...(toastId ? { toastId } : {}),
  });
}

export function successToast(message: string): void {
  toast.success(message, { autoClose: SUCCESS_AUTO_CLOSE_MS });
}
