-- A share adjusted to 0 with nothing paid towards it is settled (contract isSettled, decision 020):
-- shares an adjustment left at 0 before the re-split stored them so say so too.
UPDATE "order_shares" SET "status" = 'confirmed', "confirmed_at" = now(), "settled_as" = NULL
WHERE "status" = 'unpaid' AND "total_cents" = 0 AND "paid_cents" = 0;
