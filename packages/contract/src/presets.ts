/**
 * Session types that mean something: each type is a preset, the choices it fills in when a
 * session is created with it or changed to it. The preset fills only choices that exist and that
 * the same request did not give; the creator sees each choice and may change it before and after
 * creating. Nothing here is hidden: a preset is a starting point, not a mode.
 *
 * Zod-free and import-free on purpose: the web's create form and its storage read it on their
 * first load (docs/decisions/008).
 */
import type { SESSION_PARTICIPANT_OPTIONS, SESSION_TYPES } from "./constants.ts";

/** How a split policy shares the cart (split.ts): by adder, equally, by weights. */
export const SPLIT_MODES = ["by_adder", "equal", "weights"] as const;
/** How the fees are shared (split.ts): in proportion, equally, all on the creator. */
export const FEE_MODES = ["proportional", "equal", "creator"] as const;
type SplitMode = (typeof SPLIT_MODES)[number];
type FeeMode = (typeof FEE_MODES)[number];

type SessionTypeName = (typeof SESSION_TYPES)[number];
type Participants = (typeof SESSION_PARTICIPANT_OPTIONS)[number];

/**
 * Who may check out a session: its creator only, or every member who pays (creator and
 * participants). The permissions table's `session.checkout` rule reads it (`opened`).
 */
export const CHECKOUT_BY = ["creator", "members"] as const;
export type CheckoutBy = (typeof CHECKOUT_BY)[number];

/** What a member's budget does when their share passes it: warns (today), or asks first. */
export const BUDGET_MODES = ["warn", "ask"] as const;
export type BudgetMode = (typeof BUDGET_MODES)[number];

/** The weight offered for a member the creator marks as a child (a full share is 100). */
export const CHILD_WEIGHT = 50;

export interface Preset {
  participants: Participants;
  split: { mode: SplitMode; fees: FeeMode };
  checkoutBy: CheckoutBy;
  /** Whether the session takes invites (by email or link); a Solo session does not. */
  invites: boolean;
  /** What marking a member as a child offers (the creator confirms each): Family's only. */
  child: { weight: number; budgetMode: BudgetMode } | null;
}

/** The one table: session type to the choices it fills in. */
export const PRESETS: Record<SessionTypeName, Preset> = {
  Couple: {
    participants: "2",
    split: { mode: "equal", fees: "equal" },
    checkoutBy: "members",
    invites: true,
    child: null,
  },
  Friends: {
    participants: "3+",
    split: { mode: "by_adder", fees: "equal" },
    checkoutBy: "creator",
    invites: true,
    child: null,
  },
  Family: {
    participants: "3+",
    split: { mode: "weights", fees: "proportional" },
    checkoutBy: "creator",
    invites: true,
    child: { weight: CHILD_WEIGHT, budgetMode: "ask" },
  },
  Solo: {
    participants: "1",
    split: { mode: "by_adder", fees: "proportional" },
    checkoutBy: "creator",
    invites: false,
    child: null,
  },
};

/** The message of a Solo session's refused invite (409). */
export const SOLO_NO_INVITES =
  "A Solo session takes no invites: change its type (Couple, Friends or Family) to invite someone.";

/** Whether a session of this type takes invites. */
export const takesInvites = (type: SessionTypeName): boolean => PRESETS[type].invites;

const SPLIT_WORDS: Record<SplitMode, string> = {
  by_adder: "each pays for what they add",
  equal: "everyone pays an equal part",
  weights: "parts by weight (a full share is 100)",
};
const FEE_WORDS: Record<FeeMode, string> = {
  proportional: "fees in proportion to each share",
  equal: "fees split equally",
  creator: "the creator pays the fees",
};
const PARTICIPANT_WORDS: Record<Participants, string> = {
  "1": "just you",
  "2": "two people",
  "3+": "three or more people",
};

/** What a preset sets, in plain words, one line per choice (the create form and settings show them). */
export function presetWords(type: SessionTypeName): string[] {
  const p = PRESETS[type];
  return [
    `For ${PARTICIPANT_WORDS[p.participants]}`,
    `Split: ${SPLIT_WORDS[p.split.mode]}; ${FEE_WORDS[p.split.fees]}`,
    p.checkoutBy === "members"
      ? "Checkout: any member who pays may check out"
      : "Checkout: only the creator checks out",
    p.invites ? "Invites: open" : "Invites: none (a Solo session is yours alone)",
    ...(p.child
      ? [
          `Children: a member you mark as a child is offered weight ${p.child.weight} and an "ask first" budget`,
        ]
      : []),
  ];
}

export const splitWords = (mode: SplitMode): string => SPLIT_WORDS[mode];
export const feeWords = (fees: FeeMode): string => FEE_WORDS[fees];
