import { describe, expect, it } from "vitest";
import { splitShares, toCents } from "@cartner/contract";
import { testUser } from "../../test/render-app.tsx";
import {
  canChangeLine,
  cartHeaderLine,
  cartOrderSummary,
  findRouteCart,
  newestCartsFirst,
  participantCount,
  PENDING_LINE_PREFIX,
  sharesOf,
  unsentNote,
  withQuantityChange,
  withoutLine,
} from "./cart-model.ts";
import { FREE_LINE_IMAGE, withPendingWrites } from "./pending-writes.ts";
import { ben, cleo, makeCart, makeLine, member, products } from "../../test/test-carts.ts";
import { cartWrite, lineWrite } from "../../api/cart-writes.ts";

describe("cart header", () => {
  it("says 'Creator: You' to the creator and counts the creator plus the members", () => {
    const cart = makeCart([], {
      members: [
        member(testUser, "creator"),
        member(ben, "participant"),
        member(cleo, "viewer"),
        member({ _id: "d-1", name: "Dee" }, "pending"),
      ],
    });
    expect(cartHeaderLine(cart, testUser._id)).toBe("Creator: You · Participants: 3");
  });

  it("names another creator, and says Unknown when there is no name", () => {
    const cart = makeCart([], {
      creator: ben,
      members: [member(ben, "creator"), member(testUser, "participant")],
    });
    expect(cartHeaderLine(cart, testUser._id)).toBe("Creator: Ben Brown · Participants: 2");

    const nameless = makeCart([], { creator: { _id: "x-1", name: "" }, members: [] });
    expect(cartHeaderLine(nameless, testUser._id)).toBe("Creator: Unknown · Participants: 1");
  });

  it("counts one for a creator alone", () => {
    expect(participantCount(makeCart())).toBe(1);
  });
});

describe("who may change a line", () => {
  const mine = makeLine(testUser, products.tea);
  const bens = makeLine(ben, products.mug);

  it("lets the creator change every line", () => {
    expect(canChangeLine("creator", mine, testUser._id)).toBe(true);
    expect(canChangeLine("creator", bens, testUser._id)).toBe(true);
  });

  it("lets a participant change only their own lines", () => {
    expect(canChangeLine("participant", mine, testUser._id)).toBe(true);
    expect(canChangeLine("participant", bens, testUser._id)).toBe(false);
  });

  it("lets a viewer, a pending member and anyone in an ended session change nothing", () => {
    expect(canChangeLine("viewer", mine, testUser._id)).toBe(false);
    expect(canChangeLine("pending", mine, testUser._id)).toBe(false);
    expect(canChangeLine("creator", mine, testUser._id, false)).toBe(false);
  });
});

describe("order summary", () => {
  it("adds 1 % fees and 13 % tax on subtotal plus fees, to the cent", () => {
    expect(cartOrderSummary(38.97)).toEqual({
      subtotal: 38.97,
      fees: 0.39,
      tax: 5.12,
      total: 44.48,
    });
    expect(cartOrderSummary(0)).toEqual({ subtotal: 0, fees: 0, tax: 0, total: 0 });
  });
});

describe("optimistic changes", () => {
  it("moves a quantity within 1..99 and recomputes the totals in cents", () => {
    const line = makeLine(testUser, products.mug, 1);
    const other = makeLine(ben, products.socks, 2);
    const cart = makeCart([line, other]);
    const up = withQuantityChange(cart, line._id, 1);
    expect(up.products[0]).toMatchObject({ quantity: 2, lineTotal: 25.98 });
    expect(up.totalPrice).toBe(51.96);
    expect(up.itemCount).toBe(4);
    expect(withQuantityChange(cart, line._id, -1).products[0]?.quantity).toBe(1);
    const gone = withoutLine(up, line._id);
    expect(gone.products).toHaveLength(1);
    expect(gone.totalPrice).toBe(25.98);
  });

  it("keeps the cost of the lines hidden from the reader in the total", () => {
    const line = makeLine(testUser, products.mug, 1);
    // 12.99 seen, 30.00 of a private line in the total.
    const cart = { ...makeCart([line]), totalPrice: 42.99, privateCount: 1 };
    const up = withQuantityChange(cart, line._id, 1);
    expect(up.totalPrice).toBe(55.98);
    expect(up.itemCount).toBe(2);
    expect(withoutLine(up, line._id).totalPrice).toBe(30);
  });
});

describe("cart order", () => {
  it("sorts newest updatedAt first and finds the route's cart by session or cart id", () => {
    const older = makeCart([], { updatedAt: "2025-05-01T00:00:00.000Z" });
    const newer = makeCart([], { updatedAt: "2025-05-03T00:00:00.000Z" });
    const sorted = newestCartsFirst([older, newer]);
    expect(sorted.map((c) => c._id)).toEqual([newer._id, older._id]);
    expect(findRouteCart(sorted, { sessionId: older.sessionId._id })).toBe(older);
    expect(findRouteCart(sorted, { cartId: newer._id })).toBe(newer);
    expect(findRouteCart(sorted, {})).toBeUndefined();
  });
});

describe("pending cart writes drawn on the server's cart", () => {
  const me = { _id: testUser._id, name: testUser.name };
  const tea = {
    _id: "p-green-tea",
    name: "Green Tea",
    price: 4.5,
    imageUrl: "/api/catalog/images/green-tea.svg",
  };

  it("adds a pending line for a new product, and a second add of it raises that line", () => {
    const mug = makeLine(testUser, products.mug, 1);
    const cart = makeCart([mug]);
    const add = cartWrite({ op: "add", cartId: cart._id, product: tea });
    const again = cartWrite({ op: "add", cartId: cart._id, product: tea });
    const { cart: view, lines } = withPendingWrites(
      cart,
      [
        { write: add, waiting: true },
        { write: again, waiting: true },
      ],
      me,
    );
    const pending = view.products.find((line) => line.productId._id === tea._id)!;
    // The second add lands on the user's own line, as the server does.
    expect(pending.quantity).toBe(2);
    expect(pending._id).toBe(`${PENDING_LINE_PREFIX}${add.key}`);
    expect(pending.addedBy).toEqual(me);
    expect(view.totalPrice).toBe(21.99);
    expect(view.itemCount).toBe(3);
    expect(lines.get(pending._id)).toBe("waiting");
    expect(lines.has(mug._id)).toBe(false);
    // Its own +/- wait until the server has given it an id.
    expect(canChangeLine("creator", pending, testUser._id)).toBe(false);
    expect(canChangeLine("creator", mug, testUser._id)).toBe(true);
  });

  it("applies steps and removals in order, marks what is on its way, and skips lines gone", () => {
    const mug = makeLine(testUser, products.mug, 2);
    const socks = makeLine(ben, products.socks, 1);
    const cart = makeCart([mug, socks]);
    const { cart: view, lines } = withPendingWrites(
      cart,
      [
        { write: lineWrite(cart, mug, 1), waiting: false },
        { write: lineWrite(cart, socks, "remove"), waiting: true },
        // A change to the line removed just before: the server will refuse it; not drawn.
        { write: lineWrite(cart, socks, 1), waiting: true },
      ],
      me,
    );
    expect(view.products.map((line) => [line._id, line.quantity])).toEqual([[mug._id, 3]]);
    expect(view.totalPrice).toBe(38.97);
    expect(lines.get(mug._id)).toBe("sending");
    expect(lines.has(socks._id)).toBe(false);
  });

  it("works out the shares from the cart as drawn, so they add up to the totals shown with them", () => {
    const members = [
      member(testUser, "creator"),
      member(ben, "participant"),
      member(cleo, "viewer"),
    ];
    const mug = makeLine(testUser, products.mug, 2);
    const socks = makeLine(ben, products.socks, 1);
    const cart = makeCart([mug, socks], { members });
    const { cart: view, unsent } = withPendingWrites(
      cart,
      [
        { write: lineWrite(cart, mug, 1), waiting: true },
        {
          write: cartWrite({ op: "add", cartId: cart._id, product: tea }),
          waiting: true,
        },
        // Refused by the server once it arrives (the line is not there): not drawn, not counted.
        { write: lineWrite(cart, makeLine(ben, products.mug, 1), 1), waiting: true },
      ],
      me,
    );
    expect(unsent).toBe(2);
    expect(unsentNote(unsent)).toBe("Includes 2 changes not yet sent.");
    const cents = (shares: { total: number }[]) =>
      shares.reduce((sum, share) => sum + toCents(share.total), 0);
    const total = toCents(cartOrderSummary(view.totalPrice).total);
    // Split equally, the viewer carries nothing, and the two payers add up to the order's total.
    const equal = sharesOf(view, { mode: "equal", weights: {}, fees: "proportional" });
    expect(equal.map((share) => share.userId).sort()).toEqual([ben._id, testUser._id].sort());
    expect(cents(equal)).toBe(total);
    // By adder: Ben carries his socks only; the user carries the three mugs and the tea.
    const byAdder = sharesOf(view, { mode: "by_adder", weights: {}, fees: "proportional" });
    expect(cents(byAdder)).toBe(total);
    expect(byAdder.find((share) => share.userId === ben._id)!.subtotal).toBe(products.socks.price);
    // The server's shares (without the changes) no longer add up to the drawn cart's total.
    expect(cents(view.split)).not.toBe(total);
  });

  it("draws a tie by the cart's id as the server does: the same every time, not always one member", () => {
    const members = [
      member(testUser, "creator"),
      member(ben, "participant"),
      member(cleo, "participant"),
    ];
    const policy = { mode: "equal", weights: {}, fees: "proportional" } as const;
    const lucky = new Set<string>();
    for (let i = 0; i < 30; i++) {
      // $1.01 split three ways: $1.15 with fees and tax, 38⅓ cents each; one gets the odd cent.
      const cart = {
        ...makeCart([makeLine(testUser, { name: "Gum", price: 1.01 })], { members }),
        _id: `0c7a${String(i).padStart(4, "0")}-cart`,
      };
      const shares = sharesOf(cart, policy).map((s) => [s.userId, toCents(s.total)]);
      // The server's split of this cart (carts/view.ts): the contract's, ties by the cart's id.
      const server = splitShares(
        [{ lineTotal: 101, addedBy: testUser._id }],
        members,
        policy,
        cart._id,
      ).shares.map((s) => [s.userId, s.total]);
      expect(shares).toEqual(server);
      expect(sharesOf(cart, policy).map((s) => [s.userId, toCents(s.total)])).toEqual(shares);
      lucky.add(shares.find(([, total]) => total === 39)![0] as string);
    }
    expect(lucky.size).toBe(3);
  });

  it("draws a queued free line and a queued edit of a note, in order, as the server will answer them", () => {
    const mug = makeLine(testUser, products.mug, 2);
    const socks = makeLine(ben, products.socks, 1);
    const cart = makeCart([mug, socks]);
    const candles = cartWrite({
      op: "freeLine",
      cartId: cart._id,
      body: { name: "Birthday candles", quantity: 3, estimatedPrice: 1.99, note: "blue ones" },
    });
    const note = cartWrite({
      op: "edit",
      cartId: cart._id,
      lineId: mug._id,
      name: mug.productId.name,
      body: { note: "the blue glaze", substitute: "none" },
    });
    const {
      cart: view,
      lines,
      unsent,
    } = withPendingWrites(
      cart,
      [
        { write: candles, waiting: true },
        { write: note, waiting: true },
      ],
      me,
    );
    const pending = view.products.at(-1)!;
    expect(pending).toMatchObject({
      _id: `${PENDING_LINE_PREFIX}${candles.key}`,
      productId: { _id: null, name: "Birthday candles", price: 1.99, imageUrl: FREE_LINE_IMAGE },
      quantity: 3,
      lineTotal: 5.97,
      addedBy: me,
      free: true,
      estimated: true,
      note: "blue ones",
      substitute: "any",
    });
    expect(view.products[0]).toMatchObject({ note: "the blue glaze", substitute: "none" });
    expect(view.products[1]).toBe(socks);
    expect(view.totalPrice).toBe(Math.round((cart.totalPrice + 5.97) * 100) / 100);
    expect(lines.get(pending._id)).toBe("waiting");
    expect(lines.get(mug._id)).toBe("waiting");
    // The free line moves the figures; the note does not.
    expect(unsent).toBe(1);
    // A free line without an estimate counts at 0 until priced.
    const plain = cartWrite({ op: "freeLine", cartId: cart._id, body: { name: "Bread" } });
    const drawn = withPendingWrites(cart, [{ write: plain, waiting: false }], me);
    expect(drawn.cart.products.at(-1)).toMatchObject({ quantity: 1, lineTotal: 0, note: null });
    expect(drawn.cart.totalPrice).toBe(cart.totalPrice);
  });

  it("edits a free line's name and estimate with its total; an empty note takes the note away", () => {
    const candles = makeLine(testUser, { name: "Candles", price: 2 }, 2, {
      productId: { _id: null, name: "Candles", price: 2, imageUrl: FREE_LINE_IMAGE },
      free: true,
      estimated: true,
      note: "blue",
    });
    const cart = makeCart([candles]);
    const edit = cartWrite({
      op: "edit",
      cartId: cart._id,
      lineId: candles._id,
      name: "Candles",
      body: { name: "Tall candles", estimatedPrice: 2.5, note: null },
    });
    const { cart: view, unsent } = withPendingWrites(cart, [{ write: edit, waiting: false }], me);
    expect(view.products[0]).toMatchObject({
      productId: { name: "Tall candles", price: 2.5 },
      unitPrice: 2.5,
      lineTotal: 5,
      note: null,
    });
    expect(view.totalPrice).toBe(5);
    expect(unsent).toBe(1);
  });

  it("ignores changes to other carts and leaves the cart as it is without pending changes", () => {
    const mug = makeLine(testUser, products.mug, 1);
    const cart = makeCart([mug]);
    const other = makeCart([makeLine(testUser, products.socks, 1)]);
    const elsewhere = lineWrite(other, other.products[0]!, 1);
    expect(withPendingWrites(cart, [{ write: elsewhere, waiting: true }], me).cart).toBe(cart);
    expect(withPendingWrites(cart, [], me).lines.size).toBe(0);
  });
});
