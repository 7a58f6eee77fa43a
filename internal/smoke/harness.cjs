// wopkit's smoke harness (internal/smoke): node -e <this> NONCE ENTRY IDS SKIP MS
//
// It imports the pack's entry once, then calls nodes[typeId] for each typeId
// of IDS (a JSON array) from index SKIP on, one after the other, with the
// registry's minimal ctx, as scripts/test-packs.mjs does, and prints what
// happened as lines "\n<NONCE> <json>\n" on standard output. A call that has
// not settled after MS milliseconds is reported as a timeout and the next
// one starts. The nonce comes first on the command line and is removed from
// process.argv before the pack's code runs, so that the pack cannot forge a
// line; what the harness needs is taken before the pack can change it.
"use strict";
const fs = require("node:fs");
const url = require("node:url");
const argv = process.argv.splice(1);
const [nonce, entry, idsJSON, skipText, msText] = argv;
const ids = JSON.parse(idsJSON);
const skip = Number(skipText);
const ms = Number(msText);
const stringify = JSON.stringify;
const writeSync = fs.writeSync;
const isArray = Array.isArray;
const reallyExit = process.reallyExit;
const setT = setTimeout;
const clearT = clearTimeout;
const PromiseRace = Promise.race.bind(Promise);
const timeoutMark = Symbol("timeout");

function say(o) {
  const line = "\n" + nonce + " " + stringify(o) + "\n";
  const buf = Buffer.from(line);
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(1, buf, off, buf.length - off);
    } catch (e) {
      if (!e || e.code !== "EAGAIN") throw e;
    }
  }
}

function kind(v) {
  if (v === null) return "null";
  if (isArray(v)) return "array";
  return typeof v;
}

function text(v) {
  try {
    return String(v).slice(0, 500);
  } catch {
    return "(a value that cannot be turned into text)";
  }
}

// Whatever the pack leaves behind must not end the process between calls.
process.on("unhandledRejection", () => {});
process.on("uncaughtException", () => {});

async function main() {
  let mod;
  try {
    mod = await import(url.pathToFileURL(entry).href);
  } catch (e) {
    let msg;
    try {
      msg = e && typeof e === "object" && "message" in e ? text(e.message) : text(e);
    } catch {
      msg = "(unreadable error)";
    }
    say({ t: "import", error: msg });
    return;
  }
  let nodes, nodesKind, defaultKind;
  try {
    nodes = mod.nodes;
    nodesKind = kind(nodes);
    defaultKind = kind(mod.default);
  } catch (e) {
    say({ t: "import", error: "reading the exports threw: " + text(e && e.message) });
    return;
  }
  // The script's test: !mod.nodes || typeof mod.nodes !== 'object'.
  const haveNodes = !!nodes && typeof nodes === "object";
  say({ t: "exports", nodes: nodesKind, default: defaultKind, ok: haveNodes });
  for (let i = skip; i < ids.length; i++) {
    let fn;
    try {
      fn = haveNodes ? nodes[ids[i]] : undefined;
    } catch (e) {
      say({ t: "result", i, export: "error", message: text(e && e.message) });
      continue;
    }
    if (!haveNodes) continue;
    if (!fn) {
      say({ t: "result", i, export: "missing" });
      continue;
    }
    if (typeof fn !== "function") {
      say({ t: "result", i, export: kind(fn) });
      continue;
    }
    say({ t: "start", i });
    const ctx = { runId: "r-test", nodeId: "n-test", config: {}, inputs: {}, triggerData: {}, log: () => {} };
    let timer;
    const late = new Promise((resolve) => {
      timer = setT(() => resolve(timeoutMark), ms);
    });
    let r;
    try {
      const v = await PromiseRace([(async () => fn(ctx))(), late]);
      if (v === timeoutMark) {
        r = { outcome: "timeout" };
      } else {
        const k = kind(v);
        let has = false;
        if (v && typeof v === "object") {
          try {
            has = "outputs" in v;
          } catch {
            has = false;
          }
        }
        r = { outcome: "returned", result: k, hasOutputs: has };
      }
    } catch (e) {
      r = { outcome: "threw", thrown: kind(e) };
      if (e !== null && e !== undefined) {
        try {
          const c = e.code;
          r.codeKind = kind(c);
          if (typeof c === "string") r.code = c.slice(0, 200);
        } catch {
          r.codeKind = "error";
        }
        try {
          r.message = typeof e === "object" && "message" in e ? text(e.message) : text(e);
        } catch {
          r.message = "(unreadable error)";
        }
      }
    }
    clearT(timer);
    r.t = "result";
    r.i = i;
    say(r);
  }
}

main().then(
  () => {
    say({ t: "done" });
    reallyExit.call(process, 0);
  },
  (e) => {
    say({ t: "import", error: "harness: " + text(e && e.message) });
    reallyExit.call(process, 0);
  },
);
