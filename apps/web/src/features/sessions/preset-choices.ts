import { PRESETS, type CheckoutBy, type FeeMode, type SplitMode } from "@cartner/contract";
import type { SessionType } from "../../lib/storage.ts";

/** The choices a session type's preset fills in besides the head count (contract's PRESETS). */
export interface PresetChoices {
  splitMode: SplitMode;
  fees: FeeMode;
  checkoutBy: CheckoutBy;
}

/** What the type's preset sets for each choice. */
export function presetChoices(type: SessionType): PresetChoices {
  const preset = PRESETS[type];
  return { splitMode: preset.split.mode, fees: preset.split.fees, checkoutBy: preset.checkoutBy };
}
