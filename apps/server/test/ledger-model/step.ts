/**
 * What every command of the model test shares: it calls the API as the rules say it may be
 * called, expects the answer the model predicts (a refusal changes nothing), applies the event to
 * the model and compares every reader. Parameters are plain numbers taken modulo what exists, so
 * fast-check can shrink them.
 */
import type fc from "fast-check";
import { client, type TestApp } from "../helpers.ts";
import type { Person, World } from "./model.ts";
import { survey, verify, type Expect, type Seen } from "./verify.ts";

export interface Real {
  t: TestApp;
  seen: Seen;
}

export type Cmd = fc.AsyncCommand<World, Real>;
export const pick = <T>(xs: readonly T[], n: number): T | undefined =>
  xs.length > 0 ? xs[n % xs.length] : undefined;
export const person = (w: World, id: string) => w.people.find((p) => p.id === id)!;
export const as = (r: Real, p: Person) => client(r.t, p.token);

type Res = { statusCode: number; body: string };
/** Throws unless the answer is the one expected ("4xx": any refusal of the request). */
export function expectAnswer(res: Res, expected: number | "4xx" | number[], step: string) {
  const ok =
    expected === "4xx"
      ? res.statusCode >= 400 && res.statusCode < 500
      : Array.isArray(expected)
        ? expected.includes(res.statusCode)
        : res.statusCode === expected;
  if (!ok)
    throw new Unexpected(`${step}: answered ${res.statusCode} (expected ${expected}): ${res.body}`);
}

/** An answer the model did not predict; thrown before the model applies the step. */
export class Unexpected extends Error {}

export abstract class Step implements Cmd {
  protected label = "";
  abstract check(w: Readonly<World>): boolean;
  abstract act(w: World, r: Real): Promise<Expect[]>;
  async run(w: World, r: Real): Promise<void> {
    let expected: Expect[] = [];
    try {
      expected = await this.act(w, r);
    } catch (error) {
      // Surveying: note it, and go on with the model as it was (the step did not apply).
      if (!(error instanceof Unexpected) || !survey) throw error;
      survey.note(error.message);
    }
    await verify(r.t, w, this.label, r.seen, expected);
  }
  /** Its arguments, so a counterexample can be pasted back as code. */
  protected abstract args(): unknown[];
  toString() {
    const code = `new ${this.constructor.name}(${this.args()
      .map((a) => JSON.stringify(a))
      .join(", ")})`;
    return this.label ? `${code} /* ${this.label} */` : code;
  }
}
