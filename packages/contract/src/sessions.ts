import { z } from "zod";
import {
  BUDGET_MAX,
  PASSCODE_MAX_LENGTH,
  SESSION_NAME_MAX_LENGTH,
  SESSION_PARTICIPANT_OPTIONS,
  SESSION_TYPES,
} from "./constants.ts";
import { DeadlineSchema } from "./deadlines.ts";
import { INVITE_ROLES, SESSION_ROLES } from "./permissions.ts";
import { SeriesSchema } from "./series.ts";
import { BUDGET_MODES, CHECKOUT_BY, FEE_MODES, SPLIT_MODES } from "./presets.ts";
import { text } from "./text.ts";

export const SessionTypeSchema = z.enum(SESSION_TYPES);
export type SessionType = z.infer<typeof SessionTypeSchema>;
export const ParticipantsSchema = z.enum(SESSION_PARTICIPANT_OPTIONS);
export const SESSION_STATUSES = ["active", "ended"] as const;
export const SessionStatusSchema = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;
export const RoleSchema = z.enum(SESSION_ROLES);
export const InviteRoleSchema = z.enum(INVITE_ROLES);
/** An invite by email or name: waiting, or answered by its invitee. */
export const INVITE_STATUSES = ["pending", "accepted", "rejected"] as const;
export type InviteRole = z.infer<typeof InviteRoleSchema>;

const sessionName = text({
  min: 1,
  minMessage: "Session name is required",
  max: SESSION_NAME_MAX_LENGTH,
  name: true,
});
/** Trimmed; empty means "no passcode". */
const passcode = text({ max: PASSCODE_MAX_LENGTH, name: true });
/** Currency units, at most two decimals. */
const budget = z
  .number()
  .min(0, "Budget cannot be negative")
  .max(BUDGET_MAX, "Budget is too large")
  .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, "At most two decimals");
/** Session codes are case-insensitive for people typing them. */
export const SessionCodeSchema = text({
  min: 1,
  minMessage: "Session code is required",
  max: 32,
}).transform((s) => s.toUpperCase());

export const CheckoutBySchema = z.enum(CHECKOUT_BY, "Choose creator or members");
export const BudgetModeSchema = z.enum(BUDGET_MODES, "Choose warn or ask");
const splitMode = z.enum(SPLIT_MODES, "Choose by_adder, equal or weights");
const feeMode = z.enum(FEE_MODES, "Choose proportional, equal or creator");

/**
 * The choices a session type's preset fills in (presets.ts): each given here wins over the
 * preset's; each left out takes the preset's (on create, and when the type changes).
 */
const presetChoices = {
  splitMode: splitMode.optional(),
  fees: feeMode.optional(),
  checkoutBy: CheckoutBySchema.optional(),
};

export const CreateSessionBodySchema = z.strictObject({
  sessionName,
  sessionType: SessionTypeSchema,
  /** Left out: the type's preset says. */
  participants: ParticipantsSchema.optional(),
  passcode: passcode.optional(),
  budget: budget.nullable().optional(),
  ...presetChoices,
  /** Older clients send it; the token decides who the creator is, so it is ignored. */
  creator: z.unknown().optional(),
});
export type CreateSessionBody = z.input<typeof CreateSessionBodySchema>;

/** PATCH /sessions/:id: the fields to change, at least one (an empty change stores nothing). */
export const UpdateSessionBodySchema = z
  .strictObject({
    sessionName: sessionName.optional(),
    sessionType: SessionTypeSchema.optional(),
    participants: ParticipantsSchema.optional(),
    /** "" or null removes the passcode. */
    passcode: passcode.nullable().optional(),
    budget: budget.nullable().optional(),
    ...presetChoices,
  })
  .refine((body) => Object.keys(body).length > 0, {
    message:
      "Send at least one of sessionName, sessionType, participants, passcode, budget, splitMode, fees and checkoutBy",
  });
export type UpdateSessionBody = z.input<typeof UpdateSessionBodySchema>;

export const JoinByCodeBodySchema = z.strictObject({
  sessionCode: SessionCodeSchema,
  passcode,
});
export const SessionCodeBodySchema = z.strictObject({ sessionCode: SessionCodeSchema });

/** Approve or reject a join request: by userId or email; older clients send `{ userId: { email } }`. */
export const JoinDecisionBodySchema = z.union([
  z.strictObject({ userId: z.uuid() }),
  z.strictObject({ email: z.email() }),
  z.strictObject({ userId: z.strictObject({ email: z.email() }) }),
]);

export const InviteBodySchema = z.strictObject({
  sessionCode: SessionCodeSchema,
  emailOrUsername: text({ min: 1, minMessage: "Email or username is required", max: 254 }),
  role: InviteRoleSchema,
});

export const PersonSchema = z.object({ _id: z.string(), name: z.string(), avatar: z.string() });
export const MemberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  avatar: z.string(),
  role: RoleSchema,
  /** The member's own spending cap (null: none). */
  budget: z.number().nullable(),
  /**
   * Their "I'm done" mark: set, and their share's total is still the one they marked at (a mark
   * clears when that total changes).
   */
  ready: z.boolean(),
  /** They marked done, but their share's total has changed since: not ready until they mark again. */
  shareChanged: z.boolean(),
  /** What their budget does when their share passes it: warn (the default), or ask first. */
  budgetMode: BudgetModeSchema,
  /** Marked as a child by the creator (Family offers weight 50 and "ask first" for them). */
  child: z.boolean(),
});

/**
 * How a session splits its cart; see the contract's split.ts. A member
 * missing from `weights` has weight 100.
 */
export const SplitPolicySchema = z.strictObject({
  mode: z.enum(SPLIT_MODES),
  weights: z
    .record(
      z.uuid("Weights are keyed by member id"),
      z.number().int("A weight is a whole number").min(0).max(100, "A weight is 0 to 100"),
    )
    .refine((weights) => Object.keys(weights).length <= 100, "Too many weights"),
  fees: z.enum(FEE_MODES),
});
export type Member = z.infer<typeof MemberSchema>;

export const SessionSchema = z.object({
  _id: z.string(),
  /** Same as _id: clients read `session.id` after creating one. */
  id: z.string(),
  sessionName: z.string(),
  sessionType: SessionTypeSchema,
  participants: ParticipantsSchema,
  status: SessionStatusSchema,
  budget: z.number().nullable(),
  sessionCode: z.string(),
  /** Only for the creator and participants. */
  passcode: z.string().optional(),
  hasPasscode: z.boolean(),
  creator: PersonSchema,
  /** Everyone in the session with their role, the creator included (role "creator"). */
  invitedUsers: z.array(MemberSchema),
  cartId: z.string(),
  cart: z.object({ _id: z.string(), totalPrice: z.number(), itemCount: z.number().int() }),
  splitPolicy: SplitPolicySchema,
  /** Who may check out: the creator only, or every member who pays (presets.ts). */
  checkoutBy: CheckoutBySchema,
  /** The members who may approve "ask first" lines besides the creator (members only). */
  approvers: z.array(z.string()),
  /** The session repeats on this rule (null: it does not, or its series moved on or ended). */
  series: SeriesSchema.nullable(),
  /** The series' session this one followed, and the one that followed it (null: none). */
  previousSessionId: z.string().nullable(),
  nextSessionId: z.string().nullable(),
  /** When the cart closes, its reminders and automatic checkout (null: no deadline). */
  deadline: DeadlineSchema.nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Session = z.infer<typeof SessionSchema>;

export const InviteSchema = z.object({
  _id: z.string(),
  sessionName: z.string(),
  sessionCode: z.string(),
  role: InviteRoleSchema,
  invitedBy: PersonSchema,
  createdAt: z.string(),
});
export type Invite = z.infer<typeof InviteSchema>;

export const JoinRequestSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  avatar: z.string(),
  requestedAt: z.string(),
});
export type JoinRequest = z.infer<typeof JoinRequestSchema>;

/** One of my own join requests still waiting for the creator (GET /sessions/join-requests/mine). */
export const MyJoinRequestSchema = z.object({
  sessionId: z.string(),
  sessionName: z.string(),
  creator: z.object({ _id: z.string(), name: z.string() }),
  requestedAt: z.string(),
});
export type MyJoinRequest = z.infer<typeof MyJoinRequestSchema>;

// Invitations and members.
/** Invite-link tokens: 128 random bits, base64url (22 characters). */
export const INVITE_TOKEN_LENGTH = 22;
export const INVITE_LINK_MAX_HOURS = 720;
export const INVITE_LINK_MAX_USES = 100;

export const InviteLinkSchema = z.object({
  _id: z.string(),
  /** The page to open: PUBLIC_URL/join/{token}, or PUBLIC_URL/look/{token} for a look-only link. */
  url: z.string(),
  token: z.string(),
  /** A look-only link's is always viewer. */
  role: InviteRoleSchema,
  /**
   * Opened without an account, it shows the cart's list and total and nothing else (GET
   * /api/look/{token}); nobody joins with it.
   */
  lookOnly: z.boolean(),
  expiresAt: z.string(),
  /** null for a look-only link: it is opened, never used up. */
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
  revoked: z.boolean(),
  createdAt: z.string(),
});
export type InviteLink = z.infer<typeof InviteLinkSchema>;

const LOOK_ONLY_ROLE =
  "A look-only link only shows the list: its role is viewer (or leave role out).";

/**
 * A joining link has a role and a number of uses; a look-only link (`lookOnly: true`) has neither:
 * its role is viewer and it is not used up.
 */
export const CreateInviteLinkBodySchema = z
  .strictObject({
    role: InviteRoleSchema.optional(),
    expiresInHours: z
      .number()
      .int("Whole hours")
      .min(1, "At least 1 hour")
      .max(INVITE_LINK_MAX_HOURS, `At most ${INVITE_LINK_MAX_HOURS} hours (30 days)`),
    maxUses: z
      .number()
      .int("A whole number")
      .min(1, "At least 1 use")
      .max(INVITE_LINK_MAX_USES, `At most ${INVITE_LINK_MAX_USES} uses`)
      .optional(),
    lookOnly: z.boolean().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.lookOnly) {
      if (body.role !== undefined && body.role !== "viewer") {
        ctx.addIssue({ code: "custom", path: ["role"], message: LOOK_ONLY_ROLE });
      }
      if (body.maxUses !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["maxUses"],
          message: "A look-only link is opened, not used up: leave maxUses out.",
        });
      }
      return;
    }
    for (const field of ["role", "maxUses"] as const) {
      if (body[field] === undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: "Required for a joining link" });
      }
    }
  });
export type CreateInviteLinkBody = z.infer<typeof CreateInviteLinkBodySchema>;

/**
 * What a look-only link shows (GET /api/look/{token}): the cart's lines and total, and nothing
 * about its members: no names, no emails, no ids, no shares, no private lines.
 */
export const LookViewSchema = z.object({
  sessionName: z.string(),
  lines: z.array(
    z.object({
      name: z.string(),
      quantity: z.number().int(),
      imageUrl: z.string(),
      note: z.string().nullable(),
    }),
  ),
  /** What the lines shown cost together. */
  total: z.number(),
  updatedAt: z.string(),
});
export type LookView = z.infer<typeof LookViewSchema>;

/** What a link shows before it is accepted: never the code or the passcode. */
export const InvitePreviewSchema = z.object({
  sessionName: z.string(),
  creatorName: z.string(),
  role: InviteRoleSchema,
  expiresAt: z.string(),
});
export type InvitePreview = z.infer<typeof InvitePreviewSchema>;

/** PUT /sessions/:id/approvers: the whole list (members, not pending requesters). */
export const ApproversBodySchema = z.strictObject({
  userIds: z
    .array(z.uuid("Approvers are named by member id"))
    .max(100, "At most 100 approvers")
    .refine((ids) => new Set(ids).size === ids.length, "Name each approver once"),
});
export type ApproversBody = z.infer<typeof ApproversBodySchema>;

export const TransferBodySchema = z.strictObject({ userId: z.uuid("Member not found") });

/**
 * What becomes of the lines a member added when they are removed or leave: removed, or given to a
 * creator or participant who stays (who becomes their adder). Needed only while they have lines in
 * the active cart; without it such a member is refused with 409 MEMBER_HAS_LINES.
 */
export const MemberLinesQuerySchema = z
  .strictObject({
    lines: z.enum(["remove", "give"], "Choose remove or give for the member's lines").optional(),
    to: z.uuid("Give the lines to a member of the session").optional(),
  })
  .refine((q) => (q.lines === "give") === (q.to !== undefined), {
    message: "Name who gets the lines (to) with lines=give, and only then",
    path: ["to"],
  });
export type MemberLinesQuery = z.infer<typeof MemberLinesQuerySchema>;
