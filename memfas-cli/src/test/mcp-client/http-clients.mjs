// Usage: node http-clients.mjs URL TOKEN
// Two official clients on one `memfas mcp --http` server, at once: what one remembers, the other finds by meaning
// in its next call (the query shares no word with the memory); their sessions of the same name stay apart; a client
// without the bearer token is refused. Prints one JSON object for McpClientIT to check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = process.argv.slice(2);
const connect = async (name, bearer) => {
  const headers = bearer ? { Authorization: `Bearer ${bearer}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  return client;
};

const [a, b] = await Promise.all([connect("writer", token), connect("reader", token)]);
const out = {};

// Both at once: the reader warms its session while the writer remembers.
const [remembered] = await Promise.all([
  a.callTool({
    name: "remember",
    arguments: { text: "The staging database password rotates every 90 days.", id: "rotation" },
  }),
  b.callTool({ name: "get_context", arguments: { query: "warm up", session_id: "shared-name" } }),
]);
out.remember = { isError: remembered.isError ?? false };

const found = await b.callTool({
  name: "get_context",
  arguments: { query: "How often do credentials change?", session_id: "shared-name", token_budget: 400 },
});
out.found = { isError: found.isError ?? false, ids: found.structuredContent?.memory_ids ?? [] };

// The same session name, two clients: a scratch note of the writer's is not in the reader's working memory.
const scratch = await a.callTool({
  name: "remember",
  arguments: { text: "Scratch: try the canary first.", tags: ["temp"], session_id: "shared-name" },
});
out.scratch = { isError: scratch.isError ?? false };
const mine = await a.callTool({ name: "working_memory", arguments: { session_id: "shared-name" } });
const theirs = await b.callTool({ name: "working_memory", arguments: { session_id: "shared-name" } });
out.working = {
  writer: mine.structuredContent?.memories?.length ?? -1,
  reader: theirs.structuredContent?.memories?.length ?? -1,
};

try {
  const intruder = await connect("intruder", null);
  out.intruder = { refused: false };
  await intruder.close();
} catch (e) {
  out.intruder = { refused: true, message: String(e.message ?? e) };
}

await a.close();
await b.close();
process.stdout.write(JSON.stringify(out) + "\n");
