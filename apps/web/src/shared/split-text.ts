import type { SplitPolicy } from "@cartner/contract";

export const SPLIT_MODE_TEXT: Record<SplitPolicy["mode"], { label: string; detail: string }> = {
  by_adder: { label: "By who added it", detail: "Each member pays for the lines they added." },
  equal: {
    label: "Equally",
    detail: "Every line is shared equally by the creator and the participants.",
  },
  weights: {
    label: "By weights",
    detail: "Lines are shared by weight: 0 to 100 per member (a child at 50 pays half).",
  },
};

export const FEE_MODE_TEXT: Record<SplitPolicy["fees"], { label: string; detail: string }> = {
  proportional: { label: "In proportion", detail: "Fees follow each member's share." },
  equal: { label: "Equally", detail: "Fees are split equally among those who pay." },
  creator: { label: "Creator pays", detail: "The creator covers the fees." },
};

/** One sentence that says how this session splits (the summary and the lobby show it). */
export function policySentence(policy: SplitPolicy): string {
  return `${SPLIT_MODE_TEXT[policy.mode].detail} ${FEE_MODE_TEXT[policy.fees].detail} Tax follows each share; viewers pay nothing.`;
}
