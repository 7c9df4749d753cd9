/**
 * What the split costs per read (it is computed afresh on every cart and summary read):
 * splitShares() on a 10-line, 6-member cart, by policy. Usage: npm run bench:split
 */
import { splitShares, type SplitPolicy } from "../packages/contract/src/split.ts";

const members = Array.from({ length: 6 }, (_, i) => ({
  userId: `u${i}`,
  name: `Member ${i}`,
  role: i === 0 ? ("creator" as const) : ("participant" as const),
}));
const lines = Array.from({ length: 10 }, (_, i) => ({
  lineTotal: 1000 + i * 37,
  addedBy: `u${i % 6}`,
  sharedWith: i % 3 === 0 ? ["u0", "u1"] : [],
}));
const policies: SplitPolicy[] = [
  { mode: "by_adder", weights: {}, fees: "proportional" },
  { mode: "equal", weights: {}, fees: "equal" },
  { mode: "weights", weights: { u0: 100, u1: 50, u2: 100 }, fees: "creator" },
];

console.info(`node ${process.version}; 10 lines (a third shared by two), 6 members`);
for (const policy of policies) {
  for (let i = 0; i < 20_000; i++) splitShares(lines, members, policy);
  const runs = 200_000;
  const started = performance.now();
  for (let i = 0; i < runs; i++) splitShares(lines, members, policy);
  const micros = ((performance.now() - started) / runs) * 1000;
  console.info(`${policy.mode} / fees ${policy.fees}: ${micros.toFixed(1)} µs per split`);
}
