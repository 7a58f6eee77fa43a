// Runtime entry of vendor.acme.hello 0.1.0 (runtime.entry in pack.json).
//
// A host loads this ES module and calls one async function per node. Each
// function takes a context whose `inputs` holds the node's input ports and
// returns { status: "success", outputs: { ... } } with the output ports.
// The `nodes` object maps every typeId to its function; it is exported both
// as `nodes` and as the default export.

/** vendor.acme.hello.hello: Returns its text input upper-cased. */
export async function hello(ctx) {
  const inputs = ctx?.inputs ?? {};
  const text = String(inputs["text"] ?? "");
  return {
    status: "success",
    outputs: {
      "text": text.toUpperCase(),
    },
  };
}

export const nodes = {
  "vendor.acme.hello.hello": hello,
};

export default nodes;
