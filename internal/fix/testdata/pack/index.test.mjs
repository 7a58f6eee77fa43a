// Tests of the runtime entry: every node answers with the shape a host expects.
import { test } from "node:test";
import assert from "node:assert/strict";
import nodes, { nodes as named } from "./index.mjs";

test("nodes is exported both as default and by name", () => {
  assert.equal(nodes, named);
});

test("every node returns status success with outputs", async () => {
  for (const [typeId, run] of Object.entries(nodes)) {
    const result = await run({ inputs: { text: "hello" } });
    assert.equal(result.status, "success", typeId);
    assert.equal(typeof result.outputs, "object", typeId);
  }
});

test("vendor.acme.fx.hello", async () => {
  const result = await nodes["vendor.acme.fx.hello"]({ inputs: { "text": "hello" } });
  assert.equal(result.status, "success");
});
