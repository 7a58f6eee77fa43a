// ajv-patterns.js: records ajv's verdicts on the patterns of cases.json (where RE2 and ECMA-262 differ)
// into ajv-patterns.json, which ecmare_test.go compares the engine with. Run from a folder whose
// node_modules holds ajv@8 (what internal/fixtures.Ajv installs):
//   node internal/ecmare/testdata/ajv-patterns.js [AJV_DIR]
// For each pattern: whether ajv (draft 2020-12, strict off, its default u flag) compiles
// {"type": "string", "pattern": P}, and for each string whether the pattern accepts it, checked twice:
// as "pattern" and as a "patternProperties" key whose schema is false (refused iff the name matches).
const fs = require("fs"), path = require("path");
const dir = process.argv[2] || process.cwd();
const Ajv2020 = require(path.resolve(dir, "node_modules/ajv/dist/2020")).default;
const cases = JSON.parse(fs.readFileSync(path.join(__dirname, "cases.json"), "utf8"));
const out = [];
for (const c of cases) {
  const ajv = new Ajv2020({strict: false});
  const rec = {pattern: c.pattern, why: c.why, compiles: true, match: {}};
  let v, vp;
  try {
    v = ajv.compile({type: "string", pattern: c.pattern});
    vp = ajv.compile({type: "object", patternProperties: {[c.pattern]: false}});
  } catch (e) {
    rec.compiles = false;
    rec.error = String(e.message || e).split("\n")[0];
  }
  if (rec.compiles) {
    for (const s of c.strings) {
      const m = v(s), mp = !vp({[s]: 1});
      if (m !== mp) throw new Error("pattern and patternProperties disagree on " + JSON.stringify([c.pattern, s]));
      rec.match[s] = m;
    }
  }
  out.push(rec);
}
fs.writeFileSync(path.join(__dirname, "ajv-patterns.json"), JSON.stringify(out, null, 1) + "\n");
console.log(out.length + " patterns recorded");
