import {
  DEFAULT_SPLIT_POLICY,
  splitShares,
  type Cart,
  type CartLine,
  type Member,
} from "@cartner/contract";
import { testUser } from "./render-app.tsx";
import { ben, cleo, member } from "./test-sessions.ts";

export { ben, cleo, member };

type Person = { _id: string; name: string };

let counter = 0;

export function makeLine(
  by: Person,
  product: { name: string; price: number; color?: string },
  quantity = 1,
  overrides: Partial<CartLine> = {},
): CartLine {
  counter += 1;
  const slug = product.name.toLowerCase().replace(/\W+/g, "-");
  return {
    _id: `l-${counter}`,
    productId: {
      _id: `p-${slug}`,
      name: product.name,
      price: product.price,
      imageUrl: `/api/catalog/images/${slug}.svg`,
      ...(product.color ? { color: product.color } : {}),
    },
    quantity,
    addedBy: { _id: by._id, name: by.name },
    addedAt: "2025-05-02T10:00:00.000Z",
    lineTotal: Math.round(product.price * 100 * quantity) / 100,
    sharedWith: [],
    staple: false,
    unitPrice: product.price,
    addedPrice: product.price,
    seenPrice: product.price,
    priceChanged: false,
    available: true,
    stockShort: 0,
    free: false,
    estimated: false,
    note: null,
    substitute: "any",
    pending: null,
    hiddenFrom: [],
    ...overrides,
  };
}

/** A cart as the API returns it; the test user creates its session unless told otherwise. */
export function makeCart(
  lines: CartLine[] = [],
  {
    creator = testUser,
    members,
    ...overrides
  }: Partial<Cart> & { creator?: Person; members?: Member[] } = {},
): Cart {
  counter += 1;
  const totalCents = lines.reduce((sum, line) => sum + Math.round(line.lineTotal * 100), 0);
  return {
    _id: `c-${counter}`,
    status: "active",
    sessionId: {
      _id: `s-${counter}`,
      sessionName: `Session ${counter}`,
      status: "active",
      creator: { _id: creator._id, name: creator.name, avatar: "/api/avatars/x.svg" },
      invitedUsers: members ?? [member(creator, "creator")],
      deadline: null,
      approvers: [],
    },
    products: lines,
    totalPrice: totalCents / 100,
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    pendingTotal: 0,
    privateCount: 0,
    // As the server computes it: the contract's split function, default policy.
    split: splitShares(
      lines.map((line) => ({
        lineTotal: Math.round(line.lineTotal * 100),
        addedBy: line.addedBy._id,
        addedByName: line.addedBy.name,
      })),
      (members ?? [member(creator, "creator")]).map((m) => ({ ...m })),
      DEFAULT_SPLIT_POLICY,
      `c-${counter}`,
    ).shares.map((share) => ({
      ...share,
      subtotal: share.subtotal / 100,
      fees: share.fees / 100,
      tax: share.tax / 100,
      total: share.total / 100,
      budget: null,
      overBudget: false,
    })),
    version: 1,
    createdAt: "2025-05-01T10:00:00.000Z",
    updatedAt: "2025-05-02T10:00:00.000Z",
    ...overrides,
  };
}

export const products = {
  tea: { name: "Jasmine Green Tea", price: 6.5 },
  mug: { name: "Stoneware Mug", price: 12.99, color: "Sage" },
  socks: { name: "Wool Socks", price: 12.99 },
};
