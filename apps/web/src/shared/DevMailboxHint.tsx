import { MailCheck } from "lucide-react";
import { useDevMailbox } from "../api/auth.ts";
import { cn } from "../lib/cn.ts";

/** Points to /dev/mailbox, only where the server has one (never in production). */
export function DevMailboxHint({ className }: { className?: string }) {
  if (!useDevMailbox()) return null;
  return (
    <div
      className={cn(
        "flex gap-3 rounded-xl bg-slate-50 p-4 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset",
        className,
      )}
    >
      <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary-600" />
      <p>
        Running Cartner locally? Codes also appear in the development mailbox at{" "}
        <a href="/dev/mailbox" className="font-semibold text-primary-700 underline">
          /dev/mailbox
        </a>
        .
      </p>
    </div>
  );
}
