/**
 * What the split costs per read (it is computed afresh on every cart and summary read, and on
 * every render of the cart on the web): splitShares() on a 10-line and a 40-line cart of 6
 * members, by policy. Usage: npm run bench:split
 */
import { splitShares, type SplitPolicy } from "../packages/contract/src/split.ts";

const members = Array.from({ length: 6 }, (_, i) => ({
  userId: `u${i}`,
  name: `Member ${i}`,
  role: i === 0 ? ("creator" as const) : ("participant" as const),
}));
const cartOf = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    lineTotal: 1000 + i * 37,
    addedBy: `u${i % 6}`,
    sharedWith: i % 3 === 0 ? ["u0", "u1"] : [],
  }));
const policies: SplitPolicy[] = [
  { mode: "by_adder", weights: {}, fees: "proportional" },
  { mode: "equal", weights: {}, fees: "equal" },
  { mode: "weights", weights: { u0: 100, u1: 50, u2: 100 }, fees: "creator" },
];

console.info(`node ${process.version}; 6 members, a third of the lines shared by two`);
for (const count of [10, 40]) {
  const lines = cartOf(count);
  for (const policy of policies) {
    const split = () => splitShares(lines, members, policy, "a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f607");
    for (let i = 0; i < 20_000; i++) split();
    const runs = 100_000;
    const started = performance.now();
    for (let i = 0; i < runs; i++) split();
    const micros = ((performance.now() - started) / runs) * 1000;
    console.info(
      `${count} lines, ${policy.mode} / fees ${policy.fees}: ${micros.toFixed(1)} µs per split`,
    );
  }
}
