import { useState } from "react";
import { Button, ConfirmDialog } from "../../components/ui/index.ts";
import { formatMoney } from "../../lib/format.ts";
import { useRecordTransfer } from "../../api/settle-up.ts";

/**
 * "I've paid this": the reader records a transfer of `amount` to `to`, asked first. The transfer
 * route settles the reader's oldest parts owed to `to` (less what `to` owes back), exactly that
 * amount; the balances, the settle plan and the order page all record through this one button.
 */
export function RecordTransferButton({
  to,
  amount,
  label = "I've paid this",
  variant = "primary",
  title = `Record that you paid ${to.name} ${formatMoney(amount)}?`,
  description = `Say so once the money is on its way to ${to.name}. It settles your oldest shares owed to them, exactly this amount.`,
  ariaLabel = `Record that you paid ${to.name} ${formatMoney(amount)}`,
}: {
  to: { _id: string; name: string };
  amount: number;
  label?: string;
  variant?: "primary" | "secondary";
  title?: string;
  description?: string;
  ariaLabel?: string;
}) {
  const record = useRecordTransfer();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant={variant}
        loading={record.isPending}
        onClick={() => setAsking(true)}
        aria-label={ariaLabel}
      >
        {label}
      </Button>
      <ConfirmDialog
        open={asking}
        tone="primary"
        title={title}
        description={description}
        confirmLabel="Record transfer"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          record.mutate({ to: to._id, amount });
        }}
      />
    </>
  );
}
