// The time each tutorial lesson's start() takes under Pyodide (the page's interpreter),
// run in Node with the pinned npm `pyodide` (node_modules, from `make site`; or set
// PYODIDE_DIR). Usage: node tools/bench_tutorial.mjs  -> a Markdown table, best of 3.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = process.env.PYODIDE_DIR || path.join(root, "node_modules", "pyodide");
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: dir + path.sep });

function copy(rel) {
  for (const name of fs.readdirSync(path.join(root, rel))) {
    const sub = path.join(rel, name);
    if (fs.statSync(path.join(root, sub)).isDirectory()) {
      if (name === "__pycache__") continue;
      py.FS.mkdirTree("/home/pyodide/" + sub);
      copy(sub);
    } else if (/\.(py|json)$/.test(name)) {
      py.FS.writeFile("/home/pyodide/" + sub, fs.readFileSync(path.join(root, sub)));
    }
  }
}
py.FS.mkdirTree("/home/pyodide/nova");
copy("nova");
console.log(
  py.runPython(`
import sys, time
sys.path.insert(0, "/home/pyodide")
from nova.tutorial import LESSONS, start
rows = [f"Python {sys.version.split()[0]} (Pyodide)", "| lesson | states | ms |", "|---|---|---|"]
for lesson in LESSONS:
    best = 1e9
    for _ in range(3):
        t = time.perf_counter()
        s = start(lesson)
        best = min(best, (time.perf_counter() - t) * 1000)
    rows.append(f"| \`{lesson.id}\` | {len(s.plan.nodes)} | {best:.0f} |")
"\\n".join(rows)
`),
);
