import { useState } from "react";
import { EyeOff } from "lucide-react";
import type { Order } from "@cartner/contract";
import { useOrderAction } from "../../api/orders.ts";
import { Button, ConfirmDialog } from "../../components/ui/index.ts";

/** "includes 2 private items": lines hidden from the reader, whose cost the total holds. */
export function privateItemsText(count: number): string {
  return `includes ${count === 1 ? "1 private item" : `${count} private items`}`;
}

/**
 * Beside the total, for a reader some lines are hidden from: how many (never which); and for the
 * payee of an order with private lines, "Reveal private items" (after a confirmation), which shows
 * them to every member. The page refreshes with the answer, the others' live (order.updated).
 */
export function PrivateItems({ order, isPayee }: { order: Order; isPayee: boolean }) {
  const [asking, setAsking] = useState(false);
  const action = useOrderAction(order._id);
  const hidden = order.lines.filter((l) => l.hiddenFrom.length > 0).length;
  return (
    <>
      {order.privateCount > 0 && (
        <p className="text-sm text-slate-600">The total {privateItemsText(order.privateCount)}.</p>
      )}
      {isPayee && hidden > 0 && (
        <>
          <Button
            variant="secondary"
            fullWidth
            loading={action.isPending}
            onClick={() => setAsking(true)}
          >
            {!action.isPending && <EyeOff aria-hidden="true" className="size-4" />}
            Reveal private items
          </Button>
          <ConfirmDialog
            open={asking}
            title={`Reveal ${hidden === 1 ? "the private item" : `${hidden} private items`}?`}
            description="Everyone in the session will see these items."
            confirmLabel="Reveal"
            tone="primary"
            onCancel={() => setAsking(false)}
            onConfirm={() => {
              setAsking(false);
              action.mutate({ kind: "reveal" });
            }}
          />
        </>
      )}
    </>
  );
}
