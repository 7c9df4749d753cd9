import { useId } from "react";
import { SESSION_PARTICIPANT_OPTIONS } from "@cartner/contract";
import { cn } from "../../lib/cn.ts";
import type { SessionParticipants } from "../../lib/storage.ts";

/** The Participants choice (1, 2, 3+) as a radio group styled as segmented buttons. */
export function ParticipantsField({
  value,
  onChange,
  legend = "Participants",
}: {
  value: SessionParticipants;
  onChange: (value: SessionParticipants) => void;
  legend?: string;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-slate-800">{legend}</legend>
      <div className="mt-1.5 grid grid-cols-3 gap-2">
        {SESSION_PARTICIPANT_OPTIONS.map((option) => (
          <label key={option} className="relative">
            <input
              type="radio"
              name={`${name}-participants`}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
              className="peer sr-only"
            />
            <span
              className={cn(
                "flex h-11 cursor-pointer items-center justify-center rounded-xl border border-slate-300 bg-white",
                "text-[0.9375rem] font-semibold text-slate-700 transition-colors hover:border-slate-400",
                "peer-checked:border-primary-600 peer-checked:bg-primary-50 peer-checked:text-primary-800",
                "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary-500",
              )}
            >
              {option}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
