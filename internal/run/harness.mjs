// wopkit's run harness (internal/run). wopkit writes this file into the
// run's temporary folder and starts node on it in the sandbox. Protocol:
//
//   fd 0 (from wopkit): one JSON object per line. The first is the hello
//     {nonce, entry}; each later one is a call {id, typeId, ctx, minimal,
//     mocks, secrets, resume, hasResume, timeoutMs}.
//   fd 4 (to wopkit): one frame per line, "<nonce> <json>", json being
//     {id, t: "ready"|"event"|"log"|"result"|"fatal", ...}.
//
// The pack's code runs in this same process, so nothing here trusts what
// the global objects say after the pack was imported: every built-in this
// file uses is captured below, before the first import of the pack; objects
// the pack can see are read with own-property checks only; the nonce lives
// in this module's scope, which the pack cannot reach (strict code, no
// inspector, no heap snapshot, no process.binding under the permission
// model). A frame without the nonce, or any line wopkit cannot read, fails
// the call: the pack can make a call fail, never succeed.

import fs from "node:fs";
import v8 from "node:v8";
import nodeModule from "node:module";
import { pathToFileURL } from "node:url";

const O = Object;
const freeze = O.freeze;
const hasOwn = O.hasOwn;
const create = O.create;
const defineProperty = O.defineProperty;
const keys = O.keys;
const isArray = Array.isArray;
const stringify = JSON.stringify;
const parse = JSON.parse;
const writeSync = fs.writeSync;
const readSync = fs.readSync;
const BufferFrom = Buffer.from.bind(Buffer);
const BufferAlloc = Buffer.alloc.bind(Buffer);
const BufferConcat = Buffer.concat.bind(Buffer);
const bufIndexOf = Function.prototype.call.bind(Buffer.prototype.indexOf);
const bufSubarray = Function.prototype.call.bind(Buffer.prototype.subarray);
const bufToString = Function.prototype.call.bind(Buffer.prototype.toString);
const strSlice = Function.prototype.call.bind(String.prototype.slice);
const SetTimeout = setTimeout;
const ClearTimeout = clearTimeout;
const SetImmediate = setImmediate;
const PromiseCtor = Promise;
const ErrorCtor = Error;
const DateNow = Date.now;
const DateCtor = Date;
const AbortCtl = AbortController;
const ResponseCtor = Response;
const abortFn = Function.prototype.call.bind(AbortController.prototype.abort);
const processOn = process.on.bind(process);
const exit = process.exit.bind(process);
const stdoutStream = process.stdout;
const stdoutOnce = process.stdout.once.bind(process.stdout);
const resUsage = process.resourceUsage.bind(process);
const StringCtor = String;
const NumberIsFinite = Number.isFinite;
const typeOf = (v) => (v === null ? "null" : isArray(v) ? "array" : typeof v);
const OUT = 4;
const MAX_FRAME = 16 << 20;

// Introspection that would read this module's memory (the nonce): gone
// before the pack is imported.
const refuse = (what) => function () {
  const e = new ErrorCtor(what + " is not available to a pack under wopkit run");
  e.code = "ERR_ACCESS_DENIED";
  e.permission = what;
  throw e;
};
for (const k of ["getHeapSnapshot", "writeHeapSnapshot", "setFlagsFromString", "getHeapCodeStatistics"]) {
  try { v8[k] = refuse("v8." + k); } catch {}
}
try { nodeModule.syncBuiltinESMExports(); } catch {}

// --- reading requests (fd 0), synchronously, with captured functions.
let pending = BufferAlloc(0);
const chunk = BufferAlloc(1 << 16);
function readLine() {
  for (;;) {
    const nl = bufIndexOf(pending, 10);
    if (nl >= 0) {
      const line = bufToString(bufSubarray(pending, 0, nl), "utf8");
      pending = bufSubarray(pending, nl + 1);
      return line;
    }
    let n;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e && e.code === "EAGAIN") continue;
      return null;
    }
    if (n === 0) return null;
    pending = BufferConcat([pending, BufferFrom(bufSubarray(chunk, 0, n))]);
  }
}

const hello = parse(readLine() ?? "null");
const NONCE = StringCtor(hello.nonce);
const ENTRY = StringCtor(hello.entry);

function writeAll(s) {
  const b = BufferFrom(s, "utf8");
  let off = 0;
  while (off < b.length) {
    try {
      off += writeSync(OUT, b, off, b.length - off);
    } catch (e) {
      if (e && e.code === "EAGAIN") continue;
      throw e;
    }
  }
}

// send writes one frame; a frame over MAX_FRAME is replaced by what it was.
function send(obj) {
  const top = create(null);
  const ok = keys(obj);
  for (let i = 0; i < ok.length; i++) defineProperty(top, ok[i], { value: obj[ok[i]], enumerable: true });
  obj = top;
  let json;
  try {
    json = stringify(obj);
  } catch (e) {
    json = stringify({ id: obj.id, t: "fatal", code: "sandbox_invocation_error", message: "wopkit could not write the node's result as JSON: " + safeText(e) });
  }
  if (json === undefined) json = stringify({ id: obj.id, t: "fatal", code: "sandbox_invocation_error", message: "the result is not JSON" });
  if (json.length > MAX_FRAME) {
    json = stringify({ id: obj.id, t: obj.t === "result" ? "result" : "dropped", status: "failure", code: obj.t === "result" ? "node_output_invalid" : "sandbox_invocation_error", size: json.length,
      message: "the node's " + (obj.t === "result" ? "outputs are" : obj.t + " is") + " " + json.length + " characters of JSON, over the 16 MiB wopkit keeps: cut" });
  }
  writeAll(NONCE + " " + json + "\n");
}

// safeText is what a thrown value says, without trusting it.
function safeText(v) {
  try {
    if (v !== null && (typeof v === "object" || typeof v === "function")) {
      const m = hasOwn(v, "message") ? v.message : v instanceof ErrorCtor ? v.message : undefined;
      if (typeof m === "string") return strSlice(m, 0, 2000);
      return strSlice(StringCtor(v), 0, 2000);
    }
    return strSlice(StringCtor(v), 0, 2000);
  } catch {
    return "(a value that cannot be shown)";
  }
}

// own reads an own data property of a value the pack made, or undefined.
function own(o, k) {
  if (o === null || (typeof o !== "object" && typeof o !== "function")) return undefined;
  try {
    if (!hasOwn(o, k)) return undefined;
    return o[k];
  } catch {
    return undefined;
  }
}

// plain copies a JSON value from the request into objects with a normal
// prototype (what a pack expects to get).
function plain(v) {
  if (isArray(v)) {
    const a = [];
    for (let i = 0; i < v.length; i++) defineProperty(a, i, { value: plain(v[i]), writable: true, enumerable: true, configurable: true });
    return a;
  }
  if (v !== null && typeof v === "object") {
    const o = {};
    const ks = keys(v);
    for (let i = 0; i < ks.length; i++) { const k = ks[i]; defineProperty(o, k, { value: plain(v[k]), writable: true, enumerable: true, configurable: true }); }
    return o;
  }
  return v;
}

// errorOf maps a thrown value to {code, message, denied?}.
function errorOf(e, allowNet) {
  if (e === null || e === undefined || (typeof e !== "object" && typeof e !== "function")) {
    return { code: "pack_node_error", message: "the node threw " + (e === undefined ? "undefined" : safeText(stringify(e) ?? e)) };
  }
  // The sandbox's refusals, also when a library wrapped them as a cause.
  let c = e;
  for (let depth = 0; depth < 5 && c !== null && typeof c === "object"; depth++) {
    const code = own(c, "code");
    const perm = own(c, "permission");
    if (code === "ERR_ACCESS_DENIED") {
      const res = own(c, "resource");
      return { code: "sandbox_capability_denied", message: denied(perm, res), denied: StringCtor(perm ?? "unknown") };
    }
    const sys = own(c, "syscall");
    if (!allowNet && (code === "EPERM" || code === "EACCES") && typeof sys === "string" && /^(socket|connect|bind|listen|accept|send|getaddrinfo)/.test(sys)) {
      return { code: "sandbox_capability_denied", message: "the node opened a network socket (" + sys + " " + StringCtor(own(c, "address") ?? own(c, "hostname") ?? "") + "), which wopkit run denies without --allow-net", denied: "network" };
    }
    if (!allowNet && typeof sys === "string" && sys === "getaddrinfo") {
      return { code: "sandbox_capability_denied", message: "the node resolved a host name (" + StringCtor(own(c, "hostname") ?? "") + "), which wopkit run denies without --allow-net", denied: "network" };
    }
    if (c instanceof RangeError && /allocation failed|Invalid typed array length|Invalid array buffer length/.test(safeText(c))) {
      return { code: "sandbox_memory_exceeded", message: "the node could not allocate memory: " + safeText(c) };
    }
    c = own(c, "cause");
  }
  const code = own(e, "code");
  const cap = own(e, "capability");
  return { code: typeof code === "string" && code !== "" ? strSlice(code, 0, 200) : "pack_node_error", message: safeText(e),
    capability: typeof cap === "string" ? strSlice(cap, 0, 200) : undefined };
}

function denied(perm, res) {
  const where = typeof res === "string" && res !== "" ? " " + res : "";
  switch (perm) {
    case "FileSystemRead": return "the node read" + where + ", outside the pack: the sandbox denies it";
    case "FileSystemWrite": return "the node wrote" + where + ", outside wopkit run's temporary folder: the sandbox denies it";
    case "ChildProcess": return "the node started a process: the sandbox denies it";
    case "WorkerThreads": return "the node started a worker thread: the sandbox denies it";
    default: return "the node used " + StringCtor(perm ?? "an API") + where + ": the sandbox denies it";
  }
}

// The built-ins a pack could change to confuse the next call of the same
// process: after each call they are compared with this record, and a call
// that changed one ends its process (wopkit starts a fresh one).
const ownKeys = Reflect.ownKeys;
const getDesc = O.getOwnPropertyDescriptor;
const watched = [O.prototype, Array.prototype, Function.prototype, Promise.prototype, Promise, String.prototype, RegExp.prototype,
  JSON, O, Array, Reflect, ErrorCtor.prototype, Symbol, Number.prototype, Boolean.prototype, Map.prototype, Set.prototype];
function record() {
  const out = [];
  for (let i = 0; i < watched.length; i++) {
    const ks = ownKeys(watched[i]);
    const vals = [];
    for (let j = 0; j < ks.length; j++) {
      const d = getDesc(watched[i], ks[j]);
      defineProperty(vals, j, { value: d === undefined ? undefined : d.value ?? d.get, enumerable: true });
    }
    defineProperty(out, i, { value: vals, enumerable: true });
  }
  return out;
}
const pristine = record();
function tainted() {
  try {
    const now = record();
    for (let i = 0; i < pristine.length; i++) {
      if (now[i].length !== pristine[i].length) return true;
      for (let j = 0; j < now[i].length; j++) if (now[i][j] !== pristine[i][j]) return true;
    }
    return false;
  } catch {
    return true;
  }
}

// TOO_LARGE stands for a value over MAX_FRAME as JSON.
const TOO_LARGE = freeze(create(null));

// Suspension is the harness's own token: ctx.suspend throws it.
const SUSPEND = freeze(create(null));

// mockSurface builds the object for one surface of the mocks: each method
// takes the next answer.
function mockSurface(spec, path, state) {
  const obj = {};
  const ks = keys(spec);
  for (let ki = 0; ki < ks.length; ki++) {
    const k = ks[ki];
    const v = spec[k];
    const name = path + "." + k;
    if (isArray(v)) {
      let i = 0;
      defineProperty(obj, k, {
        value: function () {
          if (i >= v.length) {
            if (!state.mockMissing) state.mockMissing = name;
            const e = new ErrorCtor("the mocks have no answer left for " + name + " (call " + (i + 1) + ")");
            e.code = "mock_exhausted";
            return PromiseCtor.reject(e);
          }
          const a = v[i++];
          if (a !== null && typeof a === "object" && !isArray(a) && hasOwn(a, "$throw")) {
            const t = a.$throw ?? {};
            const e = new ErrorCtor(StringCtor(own(t, "message") ?? "mock error from " + name));
            if (own(t, "code") !== undefined) e.code = t.code;
            return PromiseCtor.reject(e);
          }
          if (a !== null && typeof a === "object" && !isArray(a) && hasOwn(a, "$response")) {
            // a Fetch API Response, for surfaces that return one (http.safeFetch, fetch)
            const rsp = a.$response ?? {};
            const body = own(rsp, "body");
            return PromiseCtor.resolve(new ResponseCtor(body === undefined || body === null ? null : typeof body === "string" ? body : stringify(body),
              { status: own(rsp, "status") ?? 200, headers: own(rsp, "headers") ?? {} }));
          }
          return PromiseCtor.resolve(plain(a));
        },
        writable: true, enumerable: true, configurable: true,
      });
    } else if (v !== null && typeof v === "object") {
      defineProperty(obj, k, { value: mockSurface(v, name, state), writable: true, enumerable: true, configurable: true });
    } else {
      defineProperty(obj, k, { value: plain(v), writable: true, enumerable: true, configurable: true });
    }
  }
  return obj;
}

function setPath(ctx, dotted, value) {
  const parts = dotted.split(".");
  let o = ctx;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!hasOwn(o, parts[i]) || o[parts[i]] === null || typeof o[parts[i]] !== "object") {
      defineProperty(o, parts[i], { value: {}, writable: true, enumerable: true, configurable: true });
    }
    o = o[parts[i]];
  }
  defineProperty(o, parts[parts.length - 1], { value, writable: true, enumerable: true, configurable: true });
}

// current fails the call in progress (an uncaught exception of the pack).
let current = null;

async function call(req, done) {
  const id = req.id;
  const allowNet = req.allowNet === true;
  const state = create(null);
  state.suspended = undefined;
  state.timedOut = false;
  state.mockMissing = undefined;
  let seq = 0;
  let entryModule;
  try {
    entryModule = await import(pathToFileURL(ENTRY).href + "?wopkit-case=" + id);
  } catch (e) {
    const er = errorOf(e, allowNet);
    if (er.code !== "sandbox_capability_denied" && er.code !== "sandbox_memory_exceeded") er.code = "pack_load_failure";
    send({ id, t: "result", status: "failure", code: er.code, message: "importing the entry failed: " + er.message, denied: er.denied });
    done();
    return;
  }
  const nodes = own(entryModule, "nodes");
  const fn = own(nodes, req.typeId);
  if (typeof fn !== "function") {
    const dflt = own(own(entryModule, "default"), req.typeId);
    send({ id, t: "result", status: "failure", code: "pack_load_failure", export: typeof dflt === "function" ? "default-only" : typeOf(nodes) === "object" ? "missing" : "no-nodes",
      message: typeOf(nodes) !== "object"
        ? "the entry exports no `nodes` object" + (typeof dflt === "function" ? " (the node is only in the default export)" : "")
        : "the entry's `nodes` has no function for " + req.typeId });
    done();
    return;
  }
  const controller = new AbortCtl();
  const data = req.ctx ?? {};
  let ctx;
  if (req.minimal) {
    ctx = { runId: "r-test", nodeId: "n-test", config: {}, inputs: {}, triggerData: {}, log() {} };
  } else {
    ctx = {};
    const dk = keys(data);
    for (let i = 0; i < dk.length; i++) defineProperty(ctx, dk[i], { value: plain(data[dk[i]]), writable: true, enumerable: true, configurable: true });
    ctx.log = function (level, message, extra) {
      send({ id, t: "log", level: strSlice(StringCtor(level ?? "info"), 0, 40), message: safeText(message), data: extra === undefined ? null : jsonSafe(extra) });
    };
    ctx.emit = function (a, b) {
      let type, payload;
      if (typeof a === "string") {
        type = a; payload = b;
      } else if (a !== null && typeof a === "object") {
        type = own(a, "type") ?? own(a, "kind");
        payload = own(a, "payload") ?? own(a, "data");
        if (hasOwn(a, "type") && hasOwn(a, "data")) payload = own(a, "data");
      }
      seq++;
      send({ id, t: "event", type: StringCtor(type ?? ""), shape: typeof a === "string" ? "positional" : own(a, "kind") !== undefined ? "kind-payload" : "type-data", payload: jsonSafe(payload) });
      return { eventId: "ev-" + id + "-" + seq, sequence: seq };
    };
    ctx.signal = controller.signal;
    ctx.now = () => new DateCtor(DateNow());
    const vars = create(null);
    const initial = req.variables ?? {};
    const ik = keys(initial);
    for (let i = 0; i < ik.length; i++) vars[ik[i]] = plain(initial[ik[i]]);
    ctx.variables = {
      get: (k) => vars[StringCtor(k)],
      set: (k, v) => { vars[StringCtor(k)] = v; },
    };
    const secrets = {};
    const given = req.secrets ?? {};
    const gk = keys(given);
    for (let i = 0; i < gk.length; i++) defineProperty(secrets, gk[i], { value: StringCtor(given[gk[i]]), writable: false, enumerable: true, configurable: true });
    defineProperty(secrets, "resolve", {
      value: async (arg) => {
        const ref = typeof arg === "string" ? arg : own(arg, "ref");
        if (typeof ref === "string" && hasOwn(given, ref)) return { ref, plaintext: StringCtor(given[ref]) };
        const e = new ErrorCtor("no secret " + stringify(StringCtor(ref)) + " was given (wopkit run --secrets FILE)");
        e.code = "credential_unavailable";
        throw e;
      },
      enumerable: false, writable: true, configurable: true,
    });
    ctx.secrets = secrets;
    const suspend = (kind) => (payload) => {
      if (req.hasResume) {
        // keyed by the payload's key when the resume value has that member
        const key = own(payload, "key");
        const rv = req.resume;
        if (typeof key === "string" && rv !== null && typeof rv === "object" && !isArray(rv) && hasOwn(rv, key)) return plain(rv[key]);
        return plain(rv);
      }
      if (state.suspended === undefined) {
        const k = own(payload, "kind");
        state.suspended = { kind: typeof k === "string" ? k : kind, data: jsonSafe(own(payload, "data") ?? payload) };
      }
      throw SUSPEND;
    };
    ctx.suspend = suspend("approval");
    ctx.interrupt = suspend("approval");
    const mocks = req.mocks ?? {};
    const mk = keys(mocks);
    for (let i = 0; i < mk.length; i++) {
      const k = mk[i];
      const m = mocks[k];
      setPath(ctx, k, m !== null && typeof m === "object" && !isArray(m) ? mockSurface(m, k, state) : plain(m));
    }
  }
  let settled = false;
  let timer;
  const finish = (out) => {
    if (settled) return;
    settled = true;
    current = null;
    if (timer !== undefined) ClearTimeout(timer);
    if (state.suspended !== undefined) out = { status: "suspended", interrupt: state.suspended };
    if (state.mockMissing !== undefined && out.status !== "suspended") {
      out = { status: "failure", code: "mock_exhausted", message: "the node called " + state.mockMissing + ", for which the mocks have no answer left" };
    }
    if (state.timedOut) out = { status: "failure", code: "sandbox_timeout", message: "the node did not finish within the time limit (ctx.signal was aborted)" };
    let mem = 0;
    try { mem = resUsage().maxRSS * 1024; } catch {}
    // What the pack queued on standard output goes first: wopkit stops a
    // process that writes too much there before it reads this result.
    const frame = { ...out, id, t: "result", peakMemoryBytes: mem, restart: tainted() };
    let sent = false;
    const go = () => { if (!sent) { sent = true; send(frame); done(); } };
    try {
      if (stdoutStream.writableLength > MAX_FRAME) { sent = true; send({ id, t: "result", status: "failure", code: "sandbox_invocation_error", message: "the node wrote over 16 MiB to standard output: cut, and its process was stopped", restart: true }); done(); }
      else if (stdoutStream.writableLength > 0) stdoutOnce("drain", go);
      else go();
    } catch { go(); }
  };
  current = (e) => {
    const er = errorOf(e, allowNet);
    finish({ status: "failure", code: er.code, message: er.message, denied: er.denied, capability: er.capability, thrown: true });
  };
  timer = NumberIsFinite(req.timeoutMs) && req.timeoutMs > 0
    ? SetTimeout(() => {
      state.timedOut = true;
      const e = new ErrorCtor("wopkit run: the time limit was reached");
      e.code = "sandbox_timeout";
      try { abortFn(controller, e); } catch {}
      finish({ status: "failure" });
    }, req.timeoutMs)
    : undefined;
  (async () => {
    try {
      finish(resultOf(await fn(ctx)));
    } catch (e) {
      if (e === SUSPEND) finish({ status: "suspended" });
      else {
        const er = errorOf(e, allowNet);
        finish({ status: "failure", code: er.code, message: er.message, denied: er.denied, capability: er.capability, thrown: true, thrownKind: typeOf(e) });
      }
    }
  })();
}

// hasOutputs is the smoke test's `'outputs' in result` (test-packs.mjs).
function hasOutputs(r) {
  try {
    return r !== null && typeof r === "object" && "outputs" in r;
  } catch {
    return false;
  }
}

function resultOf(r) {
  const status = own(r, "status");
  if (status === "success") {
    const outputs = jsonSafe(own(r, "outputs") ?? null);
    if (outputs === TOO_LARGE) return { status: "failure", code: "node_output_invalid", message: "the node's outputs are over 16 MiB of JSON, more than wopkit keeps: cut" };
    return { status: "success", outputs };
  }
  if (status === "error") {
    const err = own(r, "error");
    const code = own(err, "code");
    return { status: "failure", code: "pack_node_error", packCode: typeof code === "string" ? code : null,
      message: "the node returned {status: \"error\"}" + (own(err, "message") !== undefined ? ": " + safeText(own(err, "message")) : ""), returned: true,
      kind: typeOf(r), hasOutputs: hasOutputs(r) };
  }
  return { status: "failure", code: "pack_node_error", returned: true, kind: typeOf(r), hasOutputs: hasOutputs(r),
    message: "the node returned " + (r === undefined ? "nothing" : typeOf(r) === "object" ? "an object with status " + stringify(StringCtor(status ?? "(none)")) : "a " + typeOf(r)) + ", not {status: \"success\", outputs}" };
}

// jsonSafe turns a value into JSON text parsed back (so the frame's own
// serialization sees only plain data); a value that cannot be written
// becomes a string saying so.
function jsonSafe(v) {
  try {
    const s = stringify(v);
    if (s === undefined) return null;
    if (s.length > MAX_FRAME) return TOO_LARGE;
    return parse(s);
  } catch (e) {
    return { $wopkitUnserializable: safeText(e) };
  }
}

processOn("unhandledRejection", () => {});
processOn("uncaughtException", (e) => { if (current !== null) current(e); });

let permission = false;
try { permission = process.permission !== undefined && process.permission.has("fs.read", "/") === false; } catch {}
send({ id: 0, t: "ready", pid: process.pid, permission });
function next() {
  for (;;) {
    const line = readLine();
    if (line === null) return exit(0);
    if (line === "") continue;
    let req;
    try {
      req = parse(line);
    } catch {
      continue;
    }
    // The next request is read once this one is done (and the pack's
    // pending callbacks, a stray emit, have run).
    call(req, () => SetImmediate(next));
    return;
  }
}
next();
