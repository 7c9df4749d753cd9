/**
 * Answers that several requests send as they are: a batch's changes to one cart by one member
 * answer with one object (answerOf() in features/carts/line-writes.ts), and fifty writers on six
 * carts gave the same few objects to fifty answers. A route's serializer (the contract's schema
 * check, then JSON) encodes such an object once and hands the same text to the others; any
 * other answer is encoded as before. An object is marked only once it is complete: nothing
 * changes it after.
 */
const shared = new WeakSet<object>();

/** Marks `answer` as sent unchanged by every request that gets it. */
export function shareAnswer<T extends object>(answer: T): T {
  shared.add(answer);
  return answer;
}

/** A route's serializer that encodes each shared answer once (per route: its own schema). */
export function encodeSharedOnce(serialize: (data: unknown) => string): (data: unknown) => string {
  const encoded = new WeakMap<object, string>();
  return (data) => {
    if (typeof data !== "object" || data === null || !shared.has(data)) return serialize(data);
    let text = encoded.get(data);
    if (text === undefined) encoded.set(data, (text = serialize(data)));
    return text;
  };
}
