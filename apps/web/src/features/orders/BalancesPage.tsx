import { Link } from "../../lib/router.tsx";
import { Scale } from "lucide-react";
import type { Balance } from "@cartner/contract";
import { Avatar, ButtonLink, Container, EmptyState } from "../../components/ui/index.ts";
import { QueryList } from "../../components/QueryList.tsx";
import { cn } from "../../lib/cn.ts";
import { formatMoney } from "../../lib/format.ts";
import { CartSkeleton, PageLinks } from "../carts/index.ts";
import { SETTLED_UP_MESSAGE, balanceSentence } from "./order-model.ts";
import { useBalances } from "../../api/orders.ts";
import { RecordTransferButton } from "./RecordTransfer.tsx";
import { SettlePlan } from "./SettlePlan.tsx";

/** /balances: who owes whom across every order not yet settled, and the orders behind it. */
export function BalancesPage() {
  const query = useBalances();

  return (
    <Container className="flex flex-col gap-5 py-6 sm:py-8">
      <title>Balances — Cartner</title>
      <header className="flex flex-col gap-2">
        <PageLinks
          links={[
            { to: "/profile", label: "Profile" },
            { to: "/orders", label: "My Orders" },
          ]}
        />
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Balances</h1>
        <p className="text-slate-600">
          What is still open between you and each person, across all your orders. A share counts
          until its payee confirms the payment.
        </p>
      </header>
      <QueryList
        query={query}
        loading={<CartSkeleton label="Loading your balances…" sections={1} />}
        errorTitle="We couldn't load your balances."
        empty={
          <EmptyState
            size="lg"
            icon={<Scale aria-hidden="true" className="size-7" />}
            title={SETTLED_UP_MESSAGE}
          >
            <p>Nobody owes you and you owe nobody. Shares show up here after a checkout.</p>
            <ButtonLink to="/orders" variant="secondary" size="sm">
              My Orders
            </ButtonLink>
          </EmptyState>
        }
      >
        {(balances) => (
          <>
            <SettlePlan />
            <ul aria-label="Balances by person" className="flex flex-col gap-3">
              {balances.map((balance) => (
                <BalanceRow key={balance.user._id} balance={balance} />
              ))}
            </ul>
          </>
        )}
      </QueryList>
    </Container>
  );
}

function BalanceRow({ balance }: { balance: Balance }) {
  const owedToMe = balance.amount > 0;
  return (
    <li
      data-testid="balance"
      className="flex flex-col gap-3 rounded-card bg-surface p-4 shadow-soft ring-1 ring-slate-900/5 sm:p-5"
    >
      <div className="flex items-center gap-3">
        <Avatar src={balance.user.avatar} seed={balance.user._id} name={balance.user.name} />
        <p className="min-w-0 flex-1 font-semibold break-words text-ink">
          {balanceSentence(balance)}
        </p>
        <p
          className={cn(
            "font-display text-lg font-bold tabular-nums",
            owedToMe ? "text-success-700" : balance.amount < 0 ? "text-danger-700" : "text-ink",
          )}
          aria-hidden="true"
        >
          {owedToMe ? "+" : balance.amount < 0 ? "−" : ""}
          {formatMoney(Math.abs(balance.amount))}
        </p>
      </div>
      {/* What you owe someone on balance always settles whole shares: it is all of them. */}
      {balance.amount < 0 && (
        <div className="flex justify-end">
          <RecordTransferButton
            to={balance.user}
            amount={-balance.amount}
            label={`I've paid ${balance.user.name}`}
            variant="secondary"
            ariaLabel={`Record that you paid ${balance.user.name} all you owe them, ${formatMoney(-balance.amount)}`}
          />
        </div>
      )}
      <ul
        aria-label={`Orders behind this balance with ${balance.user.name}`}
        className="flex flex-col gap-1 text-sm text-slate-600"
      >
        {balance.orders.map((o) => (
          <li key={o._id}>
            <Link
              to={`/orders/${o._id}`}
              className="font-semibold text-primary-700 hover:underline"
            >
              {o.number}
            </Link>{" "}
            ({o.sessionName}): {formatMoney(Math.abs(o.amount))}{" "}
            {o.amount > 0 ? `${balance.user.name} owes you` : `you owe ${balance.user.name}`}
            {o.credit && " back (a credit after a change)"}
            {!o.credit &&
              o.status === "paid" &&
              (o.amount > 0 ? ", paid: confirm it on the order" : ", paid: awaiting confirmation")}
          </li>
        ))}
      </ul>
    </li>
  );
}
