// Usage: node client.mjs JAVA JAR DB
// Starts `memfas mcp --tools full` as a child process, runs a fixed conversation through the official client that calls
// every tool, and prints one JSON object with what came back, for McpClientIT to check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [java, jar, db] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: java,
  args: ["-jar", jar, "mcp", "--db", db, "--model", "bge-small-en-v1.5-q", "--tools", "full"],
  stderr: "inherit",
});
const client = new Client({ name: "memfas-it", version: "1.0.0" });
const out = {};
const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

await client.connect(transport);
out.server = client.getServerVersion();
out.tools = (await client.listTools()).tools.map((t) => ({
  name: t.name, required: t.inputSchema.required ?? [], annotations: t.annotations ?? null,
  hasOutputSchema: t.outputSchema !== undefined,
}));
out.prompts = (await client.listPrompts()).prompts.map((p) => p.name);
const prompt = await client.getPrompt({ name: "use_memory", arguments: { session_id: "it-1" } });
out.prompt = prompt.messages.map((m) => m.content.text).join("\n");

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

// The client checks every structured result against the tool's output schema: these calls fail if one does not fit.
const pinned = await client.callTool({
  name: "remember",
  arguments: { text: "Always answer in British English.", id: "pref-1", source: "onboarding", pinned: true,
    created_at: "2026-11-01T09:00:00Z", expires_at: "2030-01-01" },
});
out.rememberPinned = { isError: pinned.isError ?? false, structured: pinned.structuredContent };
const got = await client.callTool({ name: "get", arguments: { memory_id: "pref-1" } });
out.get = { isError: got.isError ?? false, structured: got.structuredContent };
const updated = await client.callTool({ name: "update", arguments: { memory_id: "pref-1", text: "Always answer in British English, briefly." } });
out.update = { isError: updated.isError ?? false, structured: updated.structuredContent };
const listed = await client.callTool({ name: "list", arguments: { limit: 1 } });
out.list = { isError: listed.isError ?? false, structured: listed.structuredContent };
const recalled = await client.callTool({ name: "recall", arguments: { query: "staging password" } });
out.recall = { isError: recalled.isError ?? false, structured: recalled.structuredContent };
const unknown = await client.callTool({ name: "report_usage", arguments: { session_id: "it-1", memory_ids: ["pref-1", "ghost"] } });
out.reportUnknown = { isError: unknown.isError ?? false, text: text(unknown), structured: unknown.structuredContent };
const budget = await client.callTool({ name: "set_budget", arguments: { token_budget: 700 } });
out.setBudget = { isError: budget.isError ?? false, structured: budget.structuredContent };
const forgot = await client.callTool({ name: "forget", arguments: { memory_id: "pref-1" } });
out.forget = { isError: forgot.isError ?? false, structured: forgot.structuredContent };

const stats = await client.readResource({ uri: "memfas://stats" });
out.stats = JSON.parse(stats.contents[0].text);

// Working memory: kept by session it-2 only, drawn on by its turns, then promoted into the store.
const scratch = await client.callTool({
  name: "remember",
  arguments: { text: "Scratch: trying the canary flag on the payment deploy.", tags: ["temp"], session_id: "it-2" },
});
out.rememberWorking = { isError: scratch.isError ?? false, text: text(scratch), structured: scratch.structuredContent };
const scratchId = scratch.structuredContent?.memory_id;
const workingContext = await client.callTool({
  name: "get_context", arguments: { query: "what am I trying on the payment deploy?", session_id: "it-2" },
});
out.workingContext = { isError: workingContext.isError ?? false, structured: workingContext.structuredContent };
const otherSession = await client.callTool({
  name: "get_context", arguments: { query: "what am I trying on the payment deploy?", session_id: "it-3" },
});
out.otherSession = { structured: otherSession.structuredContent };
const working = await client.callTool({ name: "working_memory", arguments: { session_id: "it-2" } });
out.working = { isError: working.isError ?? false, structured: working.structuredContent };
const promoted = await client.callTool({ name: "promote", arguments: { memory_id: scratchId, layer: "global" } });
out.promoted = { isError: promoted.isError ?? false, text: text(promoted), structured: promoted.structuredContent };
const gotPromoted = await client.callTool({ name: "get", arguments: { memory_id: scratchId } });
out.gotPromoted = { isError: gotPromoted.isError ?? false, structured: gotPromoted.structuredContent };

const bad = await client.callTool({ name: "get_context", arguments: { query: "anything", token_budget: -5 } });
out.bad = { isError: bad.isError ?? false, text: text(bad) };

const badType = await client.callTool({ name: "set_budget", arguments: { token_budget: "lots" } });
out.badType = { isError: badType.isError ?? false, text: text(badType) };

// Every other tool of the full profile, each with arguments it takes; the client checks each structured result against
// its tool's output schema, and `called` lists the tools that answered without a tool error.
const called = new Set();
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  if (!(r.isError ?? false)) called.add(name);
  else out.errors = [...(out.errors ?? []), `${name}: ${text(r)}`];
  return r;
};
await call("remember", { text: "The build server is jenkins-1.", id: "build-old", created_at: "2019-12-01" });
await call("remember", { text: "The build agents ran jenkins-1 too.", id: "build-older", created_at: "2019-12-02" });
await call("memory_context", { scope: "universal", limit: 5 });
await call("patterns", { limit: 3 });
const chat = await call("remember_conversation", { session_id: "it-1", dry_run: true, messages: [
  { author: "user", text: "I prefer short answers in code reviews." },
  { author: "assistant", text: "Noted. The next review is on March 3." }] });
out.chat = { structured: chat.structuredContent };
const superseding = await call("remember", { text: "The build server is jenkins-3.", supersedes: "build-old" });
out.supersedingRemember = { structured: superseding.structuredContent };
await call("supersede", { memory_id: superseding.structuredContent?.memory_id, text: "The build server is jenkins-4." });
await call("history", { memory_id: "build-old" });
await call("maintain", { dry_run: true });
await call("summarize", { older_than_days: 365, dry_run: true });
await call("remember", { text: "An archived note.", id: "arch", created_at: "2015-01-01" });
await call("maintain", { dry_run: false });
await call("restore", { memory_id: "arch" });
await call("time", { timezone: "Europe/Berlin", resolve: "last week" });
await call("report_event", { type: "error_occurred", text: "Build failed: OutOfMemoryError", fix: "raise the heap" });
await call("orient", { timezone: "UTC" });
await call("suggest_triggers", {});
await call("add_trigger", { keyword: "jenkins", hint: "The build server moved." });
await call("save_state", { key: "plan", value: "{\"step\": 1}" });
await call("load_state", { key: "plan" });
await call("list_state_keys", { include_preview: true });
await call("search_state", { glob: "p*" });
await call("offer", { tool_name: "getUserProfile", result: "{\"name\": \"Ana\", \"team\": 7}" });
await call("delete_state", { key: "plan" });
await call("clear_state", {});
out.called = [...called];

await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
