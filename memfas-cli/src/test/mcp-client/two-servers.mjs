// Usage: node two-servers.mjs JAVA JAR DB
// Starts two `memfas mcp` processes on one database, each with its own official client: what one remembers, the other
// finds by meaning (the query shares no word with the memory). Prints one JSON object for McpClientIT to check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [java, jar, db] = process.argv.slice(2);
const connect = async (name) => {
  const transport = new StdioClientTransport({
    command: java,
    args: ["-jar", jar, "mcp", "--db", db, "--no-telemetry"],
    stderr: "inherit",
  });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  return client;
};

const a = await connect("writer");
const b = await connect("reader");
const out = {};
// b has loaded its index (empty) before a writes.
await b.callTool({ name: "get_context", arguments: { query: "warm up", session_id: "b" } });

const remembered = await a.callTool({
  name: "remember",
  arguments: { text: "The staging database password rotates every 90 days.", id: "rotation" },
});
out.remember = { isError: remembered.isError ?? false };

const found = await b.callTool({
  name: "get_context",
  arguments: { query: "How often do credentials change?", session_id: "b", token_budget: 400 },
});
out.found = { isError: found.isError ?? false, ids: found.structuredContent?.memory_ids ?? [] };

const forgot = await a.callTool({ name: "forget", arguments: { memory_id: "rotation" } });
out.forget = { isError: forgot.isError ?? false };
const gone = await b.callTool({
  name: "get_context",
  arguments: { query: "How often do credentials change?", session_id: "b2", token_budget: 400 },
});
out.gone = { isError: gone.isError ?? false, ids: gone.structuredContent?.memory_ids ?? [] };

await a.close();
await b.close();
process.stdout.write(JSON.stringify(out) + "\n");
