import { useId, useState } from "react";
import { Scale } from "lucide-react";
import {
  FEE_MODES,
  SPLIT_MODES,
  can,
  carriesShare,
  splitShares,
  weightOf,
  type Role,
  type Session,
  type SplitPolicy,
} from "@cartner/contract";
import { useSessionCart } from "../../api/carts.ts";
import { useSaveSplitPolicy } from "../../api/sessions.ts";
import { Button, Input } from "../../components/ui/index.ts";
import { formatMoney } from "../../lib/format.ts";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";
import { FEE_MODE_TEXT, SPLIT_MODE_TEXT, policySentence } from "../../shared/split-text.ts";

/**
 * How this session splits its cart. Everyone reads it in one sentence; the creator picks the mode
 * and the fees, with weights per member, and sees a preview of the shares before saving (the
 * contract's split function, the same one the server uses).
 */
export function SplitPolicyCard({ session, role }: { session: Session; role: Role | null }) {
  const titleId = useId();
  const editable = session.status === "active" && can(role, "session.splitPolicy");
  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-4 rounded-card bg-surface p-5 shadow-soft ring-1 ring-slate-900/5 sm:p-6"
      data-testid="split-policy"
    >
      <div className="flex items-center gap-2">
        <Scale aria-hidden="true" className="size-5 text-primary-600" />
        <h2 id={titleId} className="text-lg font-bold sm:text-xl">
          How the cost is split
        </h2>
      </div>
      <p className="text-sm text-slate-600">{policySentence(session.splitPolicy)}</p>
      {editable && <PolicyEditor session={session} />}
    </section>
  );
}

function PolicyEditor({ session }: { session: Session }) {
  const [draft, setDraft] = useState<SplitPolicy>(session.splitPolicy);
  const payers = session.invitedUsers.filter((m) => carriesShare(m.role));
  // What the form shows is what it sends: every paying member's weight, 100 unless typed (the
  // contract's default too), and none for anyone who no longer pays (the server refuses those).
  const policy: SplitPolicy = {
    ...draft,
    weights: Object.fromEntries(payers.map((m) => [m.userId, weightOf(draft, m.userId)])),
  };
  const cart = useSessionCart(session._id);
  const preview = cart.data
    ? splitShares(
        cart.data.cart.products.map((line) => ({
          lineTotal: Math.round(line.lineTotal * 100),
          addedBy: line.addedBy._id,
          addedByName: line.addedBy.name,
          sharedWith: line.sharedWith.map((u) => u._id),
        })),
        session.invitedUsers,
        policy,
        cart.data.cart._id,
      ).shares
    : [];
  const save = useSaveSplitPolicy(session._id, policy, {
    onSuccess: () => {
      successToast("Split policy saved.");
    },
    onError: (error) => failureToast("Could not save the split policy", error),
  });

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Choice
        legend="Split the items"
        name="split-mode"
        options={SPLIT_MODES.map((mode) => ({ value: mode, ...SPLIT_MODE_TEXT[mode] }))}
        value={draft.mode}
        onChange={(mode) => setDraft((d) => ({ ...d, mode }))}
      />
      {draft.mode === "weights" && (
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-semibold text-ink">Weights (0 to 100)</legend>
          {payers.map((member) => (
            <label key={member.userId} className="flex items-center justify-between gap-3 text-sm">
              <span>{member.name}</span>
              <Input
                type="number"
                min={0}
                max={100}
                step={1}
                className="w-24"
                value={policy.weights[member.userId]}
                onChange={(event) => {
                  const weight = Math.max(
                    0,
                    Math.min(100, Math.round(Number(event.target.value) || 0)),
                  );
                  setDraft((d) => ({ ...d, weights: { ...d.weights, [member.userId]: weight } }));
                }}
              />
            </label>
          ))}
        </fieldset>
      )}
      <Choice
        legend="Split the fees"
        name="fee-mode"
        options={FEE_MODES.map((fees) => ({ value: fees, ...FEE_MODE_TEXT[fees] }))}
        value={draft.fees}
        onChange={(fees) => setDraft((d) => ({ ...d, fees }))}
      />
      {preview.length > 0 && (
        <div className="rounded-xl bg-slate-50 p-3">
          <p className="text-sm font-semibold text-ink">Preview with the cart as it is now</p>
          <ul aria-label="Preview of the shares" className="mt-1 text-sm text-slate-700">
            {preview.map((share) => (
              <li key={share.userId} className="flex justify-between gap-3">
                <span>{share.name}</span>
                <span className="tabular-nums">{formatMoney(share.total / 100)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div>
        <Button type="submit" loading={save.isPending}>
          Save split policy
        </Button>
      </div>
    </form>
  );
}

function Choice<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  options: Array<{ value: T; label: string; detail: string }>;
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-semibold text-ink">{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
            className="mt-1 size-4 accent-primary-600"
          />
          <span>
            <span className="font-medium text-ink">{option.label}</span>
            <span className="block text-slate-500">{option.detail}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
