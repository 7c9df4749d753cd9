import type { Product } from "@cartner/contract";

/** A few catalog products, shaped like GET /api/products answers them. */
export const sampleProducts: Product[] = [
  {
    _id: "p-headphones",
    name: "Aurora Wireless Headphones",
    price: 129.99,
    imageUrl: "/api/catalog/images/headphones-1a2b3c4d.svg",
    rating: 4.5,
    reviews: 1284,
    description: "Over-ear, noise cancelling, 30 hours of battery.",
    category: "Electronics",
    stock: 12,
  },
  {
    _id: "p-speaker",
    name: "Pocket Speaker",
    price: 49,
    imageUrl: "/api/catalog/images/speaker-5e6f7a8b.svg",
    rating: 4.4,
    reviews: 312,
    description: "Small, loud and waterproof.",
    category: "Electronics",
    stock: 0,
  },
  {
    _id: "p-tea",
    name: "Jasmine Green Tea",
    price: 6.5,
    imageUrl: "/api/catalog/images/tea-9c0d1e2f.svg",
    rating: 4.8,
    reviews: 98,
    description: "Fifty bags of fragrant green tea.",
    category: "Drinks",
    stock: 80,
  },
  {
    _id: "p-serum",
    name: "Glow Serum",
    price: 24.75,
    imageUrl: "/api/catalog/images/serum-3a4b5c6d.svg",
    rating: 3.9,
    reviews: 1,
    description: "Vitamin C serum for every morning.",
    category: "Beauty",
    stock: 40,
    color: "Amber",
  },
];

export function listBody(products: Product[] = sampleProducts) {
  return { products, total: products.length };
}
