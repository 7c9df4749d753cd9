import { CloudOff, LoaderCircle, Minus, Plus, Trash2 } from "lucide-react";
import type { CartLine } from "@cartner/contract";
import { cn } from "../../lib/cn.ts";
import { formatDate, formatMoney } from "../../lib/format.ts";
import { canDecrease, canIncrease } from "./cart-model.ts";
import type { LineState } from "./pending-writes.ts";
import { LineImage, StackedTable, stackedCell, type StackedColumn } from "./cart-parts.tsx";
import { LinePrice, StockFlag } from "./LineFlags.tsx";
import { ApprovalControls, WaitingBadge } from "./LineApproval.tsx";
import { LineNoteEditor } from "./LineNote.tsx";
import { EstimatedBadge, LineRemarks, PrivateBadge } from "./line-remarks.tsx";
import { StapleBadge, StapleToggle } from "./StapleToggle.tsx";

export const ADDED_BY_SOMEONE = "Added by someone";

/** 'Added by {name} on {date}', or 'Added by someone'. */
export function addedByText(line: CartLine): string {
  const name = line.addedBy?.name?.trim();
  if (!name) return ADDED_BY_SOMEONE;
  const date = line.addedAt ? formatDate(line.addedAt) : "";
  return date ? `Added by ${name} on ${date}` : `Added by ${name}`;
}

export interface LineControls {
  /** May this member change or remove this line? */
  canChange: (line: CartLine) => boolean;
  onChange: (line: CartLine, change: 1 | -1) => void;
  onRemove: (line: CartLine) => void;
  /** The cart whose lines may be marked staples (a series' session); absent: no staple toggle. */
  stapleCartId?: string | undefined;
  /** The cart whose changed prices this member may acknowledge (a member who pays, cart open). */
  acknowledgeCartId?: string | undefined;
  /** The cart whose lines' notes may be edited (an open cart); absent: notes are only shown. */
  noteCartId?: string | undefined;
  /** The cart whose waiting lines this member approves or declines (creator, approvers). */
  approveCartId?: string | undefined;
  /** Who approves: their own waiting lines are someone else's to approve. */
  approverId?: string | undefined;
}

interface CartLinesTableProps {
  lines: CartLine[];
  /** Lines with changes the server has not confirmed yet, marked as pending. */
  lineStates?: ReadonlyMap<string, LineState> | undefined;
  caption: string;
  /** Without controls the table is read-only and has no Remove column (cart history). */
  controls?: LineControls;
}

/** "Waiting for connection" (queued offline) or "Saving…" (on its way). */
function PendingBadge({ state }: { state: LineState }) {
  return state === "waiting" ? (
    <span className="inline-flex w-fit items-center gap-1 rounded-full bg-accent-50 px-2 py-0.5 text-xs font-medium text-accent-800 ring-1 ring-accent-200 ring-inset">
      <CloudOff aria-hidden="true" className="size-3" />
      Pending: waiting for connection
    </span>
  ) : (
    <span className="inline-flex w-fit items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">
      <LoaderCircle aria-hidden="true" className="size-3 animate-spin motion-reduce:animate-none" />
      Saving…
    </span>
  );
}

const COLUMNS: StackedColumn[] = [
  { label: "Product", className: "pr-3" },
  { label: "Quantity", className: "px-3 text-center" },
  { label: "Total", className: "px-3 text-right" },
];
const COLUMNS_WITH_REMOVE: StackedColumn[] = [
  ...COLUMNS,
  { label: "Remove", className: "pl-3 text-right" },
];

const iconButton =
  "inline-flex size-9 items-center justify-center rounded-lg text-slate-600 transition-colors " +
  "hover:bg-slate-100 hover:text-ink disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent";

/**
 * The cart's lines: Product, Quantity, Total, Remove. At 640 px and below each row is a
 * stacked card: product and remove on top, quantity and total below.
 */
export function CartLinesTable({ lines, lineStates, caption, controls }: CartLinesTableProps) {
  return (
    <StackedTable caption={caption} columns={controls ? COLUMNS_WITH_REMOVE : COLUMNS}>
      {lines.map((line) => {
        const name = line.productId.name;
        const editable = controls?.canChange(line) ?? false;
        const state = lineStates?.get(line._id);
        return (
          <tr
            key={line._id}
            data-pending={state}
            role="row"
            className="max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-2 max-sm:py-3"
          >
            <td
              role="cell"
              className={cn(stackedCell, "pr-3 max-sm:col-start-1 max-sm:row-start-1")}
            >
              <div className="flex min-w-0 items-start gap-3">
                <LineImage src={line.productId.imageUrl} />
                <div className="flex min-w-0 flex-col gap-0.5">
                  <span className="font-semibold break-words text-ink">{name}</span>
                  {state && <PendingBadge state={state} />}
                  {line.pending && <WaitingBadge />}
                  {line.staple && <StapleBadge />}
                  {line.hiddenFrom.length > 0 && <PrivateBadge />}
                  <StockFlag line={line} />
                  {line.estimated && <EstimatedBadge />}
                  <LinePrice line={line} cartId={controls?.acknowledgeCartId} />
                  {line.productId.color && (
                    <span className="text-xs text-slate-500">Color: {line.productId.color}</span>
                  )}
                  <span className="text-xs text-slate-500">{addedByText(line)}</span>
                  {line.sharedWith?.length > 0 && (
                    <span className="text-xs font-medium text-primary-700">
                      Shared by {line.sharedWith.map((u) => u.name).join(", ")}
                    </span>
                  )}
                  <LineRemarks line={line} />
                  {line.pending &&
                    controls?.approveCartId &&
                    line.addedBy._id !== controls.approverId &&
                    !state && <ApprovalControls cartId={controls.approveCartId} line={line} />}
                  {/* Edits queue behind the line's other changes, so they wait with them. */}
                  {editable && controls?.noteCartId && (
                    <LineNoteEditor cartId={controls.noteCartId} line={line} />
                  )}
                </div>
              </div>
            </td>
            <td
              role="cell"
              className={cn(
                stackedCell,
                "px-3 text-center max-sm:col-start-1 max-sm:row-start-2 max-sm:pl-[4.25rem] max-sm:text-left",
              )}
            >
              {editable && controls ? (
                <div className="inline-flex items-center rounded-xl bg-white ring-1 ring-slate-300 ring-inset">
                  <button
                    type="button"
                    className={iconButton}
                    aria-label={`Decrease quantity of ${name}`}
                    disabled={!canDecrease(line)}
                    onClick={() => controls.onChange(line, -1)}
                  >
                    <Minus aria-hidden="true" className="size-4" />
                  </button>
                  <span className="min-w-8 text-center font-semibold text-ink tabular-nums">
                    {line.quantity}
                  </span>
                  <button
                    type="button"
                    className={iconButton}
                    aria-label={`Increase quantity of ${name}`}
                    disabled={!canIncrease(line)}
                    onClick={() => controls.onChange(line, 1)}
                  >
                    <Plus aria-hidden="true" className="size-4" />
                  </button>
                </div>
              ) : (
                <span className="font-semibold text-ink tabular-nums">
                  <span className="font-normal text-slate-500 sm:hidden">Qty </span>
                  {line.quantity}
                </span>
              )}
            </td>
            <td
              role="cell"
              className={cn(
                stackedCell,
                "px-3 text-right font-semibold whitespace-nowrap text-ink tabular-nums",
                "max-sm:col-start-2 max-sm:row-start-2 max-sm:self-center",
              )}
            >
              {line.available && !line.pending ? (
                formatMoney(line.lineTotal)
              ) : (
                // Left out of the cart's total and split: struck through, and said so.
                <span className="font-medium text-slate-500">
                  <s>{formatMoney(line.lineTotal)}</s>
                  <span className="sr-only"> (not counted)</span>
                </span>
              )}
            </td>
            {controls && (
              <td
                role="cell"
                className={cn(
                  stackedCell,
                  "pl-3 text-right max-sm:col-start-2 max-sm:row-start-1 max-sm:self-start",
                )}
              >
                {editable && (
                  <div className="inline-flex items-center gap-1">
                    {controls.stapleCartId && !state && (
                      <StapleToggle cartId={controls.stapleCartId} line={line} />
                    )}
                    <button
                      type="button"
                      className={cn(iconButton, "hover:bg-danger-50 hover:text-danger-700")}
                      aria-label={`Remove ${name}`}
                      title="Remove"
                      onClick={() => controls.onRemove(line)}
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                    </button>
                  </div>
                )}
              </td>
            )}
          </tr>
        );
      })}
    </StackedTable>
  );
}
