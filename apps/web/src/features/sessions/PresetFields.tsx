import {
  CHECKOUT_BY,
  FEE_MODES,
  feeWords,
  PRESETS,
  SPLIT_MODES,
  splitWords,
  type CheckoutBy,
} from "@cartner/contract";
import { SelectField } from "../../components/ui/index.ts";
import type { SessionType } from "../../lib/storage.ts";
import { presetChoices, type PresetChoices } from "./preset-choices.ts";

const CHECKOUT_WORDS: Record<CheckoutBy, string> = {
  creator: "only the creator checks out",
  members: "any member who pays may check out",
};

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * What the type sets, in plain words, and each choice to change: split, fees and who checks out.
 * A choice that differs from the type's preset says so; the invite and child rules are shown as
 * they are (a Solo session takes no invites; Family offers weight and "ask first" for children).
 */
export function PresetFields({
  type,
  values,
  onChange,
}: {
  type: SessionType;
  values: PresetChoices;
  onChange: (change: Partial<PresetChoices>) => void;
}) {
  const preset = PRESETS[type];
  const fromPreset = presetChoices(type);
  const hint = (key: keyof PresetChoices) =>
    values[key] === fromPreset[key] ? `As ${type} sets it.` : `${type} sets another; yours wins.`;
  return (
    <fieldset className="flex flex-col gap-4 rounded-xl border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-800">
        What a {type} session sets
      </legend>
      <ul className="list-disc pl-5 text-sm text-slate-700" aria-label={`${type} sets`}>
        <li>Split: {splitWords(values.splitMode)}</li>
        <li>Fees: {feeWords(values.fees)}</li>
        <li>Checkout: {CHECKOUT_WORDS[values.checkoutBy]}</li>
        <li>
          {preset.invites
            ? "Invites: open to anyone you invite"
            : "Invites: none, a Solo session is yours alone"}
        </li>
        {preset.child && (
          <li>
            Children: a member you mark as a child is offered weight {preset.child.weight} and an
            “ask first” budget
          </li>
        )}
      </ul>
      <p className="text-sm text-slate-500">Change any of these now or later.</p>
      <ChoiceField
        label="Split"
        choice="splitMode"
        options={SPLIT_MODES}
        words={splitWords}
        {...{ values, onChange, hint }}
      />
      <ChoiceField
        label="Fees"
        choice="fees"
        options={FEE_MODES}
        words={feeWords}
        {...{ values, onChange, hint }}
      />
      <ChoiceField
        label="Who checks out"
        choice="checkoutBy"
        options={CHECKOUT_BY}
        words={(by) => CHECKOUT_WORDS[by]}
        {...{ values, onChange, hint }}
      />
    </fieldset>
  );
}

/** One of the preset's choices as a select: its options in words, and whether it is the preset's. */
function ChoiceField<K extends keyof PresetChoices>({
  label,
  choice,
  options,
  words,
  values,
  onChange,
  hint,
}: {
  label: string;
  choice: K;
  options: readonly PresetChoices[K][];
  words: (option: PresetChoices[K]) => string;
  values: PresetChoices;
  onChange: (change: Partial<PresetChoices>) => void;
  hint: (key: keyof PresetChoices) => string;
}) {
  return (
    <SelectField
      label={label}
      name={choice}
      hint={hint(choice)}
      value={values[choice]}
      onChange={(event) =>
        onChange({ [choice]: event.target.value as PresetChoices[K] } as Partial<PresetChoices>)
      }
    >
      {options.map((option) => (
        <option key={option} value={option}>
          {capital(words(option))}
        </option>
      ))}
    </SelectField>
  );
}
