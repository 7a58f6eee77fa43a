// Reference JCS in ECMAScript: JSON.stringify writes RFC 8785 numbers and
// strings; the default sort orders keys by UTF-16 code units. Objects are
// serialised by hand because JS objects list integer-like keys first.
// Reads one JSON text per line, writes its JCS form.
const jcs = (v) => {
  if (Array.isArray(v)) return "[" + v.map(jcs).join(",") + "]";
  if (v !== null && typeof v === "object") {
    return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + jcs(v[k])).join(",") + "}";
  }
  return JSON.stringify(v);
};
const lines = require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l !== "");
process.stdout.write(lines.map((l) => jcs(JSON.parse(l))).join("\n") + "\n");
