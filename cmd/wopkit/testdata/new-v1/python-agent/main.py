"""Runtime entry of vendor.acme.one 0.1.0 (runtime.entry in pack.json).

A host imports this module and calls one async function per node. Each
function takes a context whose "inputs" holds the node's input ports and
returns {"status": "success", "outputs": {...}} with the output ports.
NODES maps every typeId to its function.
"""


async def hello(ctx):
    """vendor.acme.one.hello: Returns its text input upper-cased."""
    inputs = (ctx or {}).get("inputs") or {}
    text = str(inputs.get("text", ""))
    return {
        "status": "success",
        "outputs": {
            "text": text.upper(),
        },
    }


NODES = {
    "vendor.acme.one.hello": hello,
}
