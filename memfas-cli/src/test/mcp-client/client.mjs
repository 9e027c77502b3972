// Usage: node client.mjs JAVA JAR DB
// Starts `memfas mcp` as a child process, runs a fixed conversation through the official client, and prints one JSON
// object with what came back, for McpClientIT to check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [java, jar, db] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: java,
  args: ["-jar", jar, "mcp", "--db", db, "--model", "bge-small-en-v1.5-q"],
  stderr: "inherit",
});
const client = new Client({ name: "memfas-it", version: "1.0.0" });
const out = {};
const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

await client.connect(transport);
out.server = client.getServerVersion();
out.tools = (await client.listTools()).tools.map((t) => ({ name: t.name, required: t.inputSchema.required ?? [] }));

const remembered = await client.callTool({
  name: "remember",
  arguments: { text: "The staging database password rotates every <90> days & lives in Vault.", kind: "fact", tags: ["ops"] },
});
out.remember = { isError: remembered.isError ?? false, text: text(remembered), structured: remembered.structuredContent };

const context = await client.callTool({
  name: "get_context",
  arguments: { query: "how often does the staging database password rotate?", session_id: "it-1", token_budget: "500", include_triggers: "true" },
});
out.getContext = { isError: context.isError ?? false, text: text(context), structured: context.structuredContent };

const usage = await client.callTool({
  name: "report_usage",
  arguments: { session_id: "it-1", memory_ids: context.structuredContent?.memory_ids ?? [], was_helpful: true },
});
out.reportUsage = { isError: usage.isError ?? false, text: text(usage) };

const stats = await client.readResource({ uri: "memfas://stats" });
out.stats = JSON.parse(stats.contents[0].text);

const bad = await client.callTool({ name: "get_context", arguments: { query: "anything", token_budget: -5 } });
out.bad = { isError: bad.isError ?? false, text: text(bad) };

const badType = await client.callTool({ name: "set_budget", arguments: { token_budget: "lots" } });
out.badType = { isError: badType.isError ?? false, text: text(badType) };

await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
