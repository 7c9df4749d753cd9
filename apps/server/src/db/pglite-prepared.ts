import { parse, protocol, type PGlite } from "@electric-sql/pglite";

/**
 * Named prepared statements on the embedded database, which its client does not offer: its
 * `query` parses, analyses and plans the text again on every call, and for the light queries
 * reads run on every request that is most of their cost. A text is parsed once under a name
 * (its parameters' types read then); later calls bind and execute that name, and PostgreSQL
 * keeps a generic plan once it finds it as good as the custom ones.
 *
 * Each call holds the client's transaction lock as its `query` does, so it never runs between
 * the statements of another caller's transaction, and always ends with Sync, so an error leaves
 * the session ready for the next statement.
 */
export function pglitePrepared(client: PGlite, maxStatements: number) {
  const statements = new Map<string, { name: string; paramTypes: number[] }>();
  // Names never reused: one whose Parse worked but whose Describe failed still exists.
  let made = 0;
  const { serialize } = protocol;

  const send = async (message: Uint8Array) =>
    (await client.execProtocol(message, { syncToFs: false })).messages;

  async function prepare(text: string) {
    const name = `light_${made++}`;
    await send(serialize.parse({ name, text }));
    const described = await send(serialize.describe({ type: "S", name }));
    const parameters = described.find(
      (m): m is InstanceType<typeof protocol.messages.ParameterDescriptionMessage> =>
        m.name === "parameterDescription",
    );
    const statement = { name, paramTypes: parameters?.dataTypeIDs ?? [] };
    statements.set(text, statement);
    return statement;
  }

  return async function prepared<T>(text: string, params: unknown[]): Promise<T[]> {
    if (!statements.has(text) && statements.size >= maxStatements) {
      return (await client.query<T>(text, params)).rows;
    }
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const messages = [];
        try {
          const { name, paramTypes } = statements.get(text) ?? (await prepare(text));
          const values = params.map((value, i) => {
            if (value === null || value === undefined) return null;
            const serializer = client.serializers[paramTypes[i] ?? 0];
            return serializer ? serializer(value) : String(value);
          });
          messages.push(
            ...(await send(serialize.bind({ statement: name, values }))),
            ...(await send(serialize.describe({ type: "P" }))),
            ...(await send(serialize.execute({}))),
          );
        } finally {
          messages.push(...(await send(serialize.sync())));
        }
        return (parse.parseResults(messages, client.parsers)[0]?.rows ?? []) as T[];
      }),
    );
  };
}
