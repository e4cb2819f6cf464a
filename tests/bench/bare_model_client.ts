/**
 * The baseline of the model-turn row: the least an agent loop over HTTP can do per turn, in its own process
 * like weft. For each line on stdin it sends one agent call's three chat-completions requests in turn to the
 * URL it is given, each carrying the conversation so far (the previous answer's message appended), parses
 * each answer as JSON, then prints one line. Run as `deno run -A tests/bench/bare_model_client.ts URL`.
 *
 * @module
 */

const [url] = Deno.args;
const tools = ["get_context", "submit_note", "complete_agent_call"].map((name) => ({
  type: "function",
  function: {
    name,
    description: `The ${name} tool.`,
    parameters: { type: "object", properties: { value: { type: "string" } }, additionalProperties: false },
  },
}));
const encoder = new TextEncoder();
const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
for await (const chunk of lines) {
  for (const _ of chunk.split("\n").slice(0, -1)) {
    const messages: unknown[] = [
      { role: "system", content: "Read the context, submit a note, finish with outcome done." },
      { role: "user", content: "You are doing step draft of stage work. Use the tools." },
    ];
    for (let turn = 0; turn < 3; turn++) {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "bench", messages, tools, tool_choice: "required" }),
      });
      const answer = await response.json() as { choices: { message: unknown }[] };
      messages.push(answer.choices[0].message);
    }
    await Deno.stdout.write(encoder.encode("ok\n"));
  }
}
