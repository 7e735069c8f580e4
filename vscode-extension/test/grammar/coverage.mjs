// Every scope name the grammar can produce is asserted by at least one grammar test.
import { readFileSync, readdirSync } from "node:fs";

for (const [language, extension] of [["amr", ".amr"], ["umr", ".umr"]]) {
const grammar = JSON.parse(readFileSync(`syntaxes/${language}.tmLanguage.json`, "utf8"));
const scopes = new Set();
(function walk(value) {
  if (Array.isArray(value)) value.forEach(walk);
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "name" && typeof inner === "string" && value !== grammar) scopes.add(inner);
      else walk(inner);
    }
  }
})(grammar);

const dir = "test/grammar";
const asserted = new Set();
for (const file of readdirSync(dir).filter((f) => f.endsWith(extension))) {
  for (const line of readFileSync(`${dir}/${file}`, "utf8").split("\n")) {
    const match = /^#\s*(?:\^+|<-+)\s+(.*)$/.exec(line);
    if (match) match[1].split(/\s+/).filter((s) => !s.startsWith("-")).forEach((s) => asserted.add(s));
  }
}
const missing = [...scopes].filter((s) => !asserted.has(s)).sort();
if (missing.length) {
  console.error(`${language}: scopes without a grammar test: ${missing.join(", ")}`);
  process.exit(1);
}
console.log(`${language}: all ${scopes.size} grammar scopes are asserted`);
}
