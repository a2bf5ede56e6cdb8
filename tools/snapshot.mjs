// The game inside the pinned Pyodide, under Node: module census, workout, memory snapshot.
//
// usage:
//   node tools/snapshot.mjs trace <pyodide-dir> <stdlib.zip> <nova.zip> <workout.py> <extra.json> <out.json>
//   node tools/snapshot.mjs play  <pyodide-dir> <stdlib.zip> <nova.zip> <workout.py> [games-per-bot]
//   node tools/snapshot.mjs make  <pyodide-dir> <stdlib.zip> <nova.zip> <warm.json> <out.bin>
//
// Every mode boots Pyodide with <stdlib.zip> (stdLibURL, as the page does) and unpacks
// <nova.zip> into the home directory with the same unpackArchive call PyScript makes for
// `"./nova.zip" = "./*"`, so Python sees the files where the page has them.
//
// trace: runs the workout (tools/game_workout.py: whole games with every bot, every screen)
//   and imports the module names in <extra.json> (what PyScript's own Python imports), then
//   writes the standard-library files the interpreter loaded: the trimmed stdlib's contents.
// play: the workout under <stdlib.zip> (the trimmed one): exits 1 on any error, such as a
//   module the trimmed library lacks.
// make: imports the modules listed in <warm.json> ({"modules": [...], "run": "python code"})
//   and writes pyodide.makeMemorySnapshot() to <out.bin> (free memory zeroed), and the names
//   in sys.modules then to <out.bin>.modules.json. The snapshot holds the heap only:
//   the page must mount the very same stdlib zip and nova files (tools/build_site.py records
//   their hashes in the manifest the shim checks).
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

const [mode, pyodideDir, stdlibZip, novaZip, arg4, arg5, arg6] = process.argv.slice(2);
if (!["trace", "play", "make"].includes(mode) || !pyodideDir || !stdlibZip || !novaZip) {
  console.error("usage: snapshot.mjs trace|play|make <pyodide-dir> <stdlib.zip> <nova.zip> ...");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const py = await loadPyodide({
  indexURL: resolve(pyodideDir) + sep,
  stdLibURL: resolve(stdlibZip),
  _makeSnapshot: mode === "make",
  // No column ranges in code objects (python -X no_debug_ranges), also those made at run time
  // (dataclasses' methods): tracebacks keep their line numbers; the snapshot's heap, and the
  // interpreter's settings restored with it, have none (0.4 MB less gzipped, issue 23).
  env: { PYTHONNODEBUGRANGES: "1" },
});
// PyScript: writeFile -> interpreter.unpackArchive(buffer, "zip", { extractDir: "./" })
py.unpackArchive(new Uint8Array(readFileSync(novaZip)), "zip", { extractDir: "./" });

function runWorkout(path, games) {
  py.FS.writeFile("/tmp/game_workout.py", readFileSync(path));
  py.globals.set("games_per_bot", games);
  return py.runPython(`
import json, sys
sys.path.insert(0, "/tmp")
import game_workout
json.dumps(game_workout.workout(games_per_bot))
`);
}

if (mode === "trace") {
  const extra = JSON.parse(readFileSync(arg5, "utf8"));
  console.log(`workout: ${runWorkout(arg4, 1)}`);
  py.globals.set("extra", py.toPy(extra));
  const files = py.runPython(`
import importlib, json, sys
missing = []
for name in extra:
    try:
        importlib.import_module(name)
    except ImportError as exc:  # a JS module (js, polyscript...) or not in this build
        missing.append(f"{name}: {exc}")
zip_path = [p for p in sys.path if p.endswith(".zip")][0]
files = set()
for name, mod in list(sys.modules.items()):
    f = getattr(mod, "__file__", None) or ""
    if f.startswith(zip_path + "/"):
        files.add(f[len(zip_path) + 1:])
json.dumps({"zip": zip_path, "files": sorted(files), "modules": sorted(sys.modules),
            "not_found": missing})
`);
  writeFileSync(arg6, files);
  const data = JSON.parse(files);
  console.log(`trace: ${data.files.length} stdlib files loaded -> ${arg6}`);
} else if (mode === "play") {
  console.log(`workout: ${runWorkout(arg4, Number(arg5 || 1))}`);
} else {
  const warm = JSON.parse(readFileSync(arg4, "utf8"));
  // names go in as a literal: no JS object may stay referenced from Python in a snapshot
  py.runPython(`
import importlib
for _name in ${JSON.stringify(warm.modules || [])}:
    importlib.import_module(_name)
globals().pop("_name", None)
`);
  if (warm.run) py.runPython(warm.run);
  // what the snapshot holds already: the page then needs from the stdlib zip only the rest
  const modules = py.runPython("import json, sys; json.dumps(sorted(sys.modules))");
  // Garbage collected, and the type attribute cache (in the interpreter's static state: 18 KB
  // of the gzipped snapshot) emptied: it fills again as the page runs.
  py.runPython(`
import gc, sys
gc.collect()
(getattr(sys, "_clear_internal_caches", None) or sys._clear_type_cache)()
`);
  const snap = py.makeMemorySnapshot();
  const M = py._module;
  const brk = typeof M._sbrk === "function" ? M._sbrk(0) >>> 0 : 0;
  const zeroed = zeroFreeChunks(snap, M.___heap_base >>> 0, brk);
  writeFileSync(arg5, snap);
  writeFileSync(arg5 + ".modules.json", modules);
  console.log(`snapshot: ${snap.length} bytes (${zeroed}) -> ${arg5}`);
}

// Python's objects live in Emscripten's malloc (dlmalloc: Pyodide's Python has no pymalloc),
// which leaves freed memory as it was: the bytes of dead objects, which compress badly (20 KB
// of the gzipped snapshot). This walks the snapshot's heap chunk by chunk, from __heap_base to
// the break, and zeroes what each free chunk holds past dlmalloc's own fields (its first 32
// bytes: sizes, list and tree links); the chunk after keeps the free chunk's size in its first
// word. If any chunk does not read as dlmalloc's layout (a size out of bounds, in-use bits
// that disagree, a walk that does not end at the break), the snapshot stays as it was.
function zeroFreeChunks(snap, heapBase, brk) {
  const view = new DataView(snap.buffer, snap.byteOffset, snap.byteLength);
  const start = view.getUint32(4, true); // the header's length (tools/snapshot_delta.py)
  if (!heapBase || brk <= heapBase || start + brk > snap.length) return "free chunks kept: no heap";
  const free = [];
  let p = heapBase;
  while (p < brk) {
    const head = view.getUint32(start + p + 4, true);
    const size = head & ~7;
    const next = p + size;
    if (size < 16 || next > brk) return `free chunks kept: chunk at ${p} of size ${size}`;
    // the next chunk's PINUSE bit (1) says whether this one is in use (its CINUSE bit, 2)
    if (next < brk && ((view.getUint32(start + next + 4, true) & 1) !== 0) !== ((head & 2) !== 0)) {
      return `free chunks kept: in-use bits disagree at ${p}`;
    }
    if (!(head & 2) && size > 32) free.push([p + 32, next]);
    p = next;
  }
  if (p !== brk) return `free chunks kept: the walk ended at ${p}, not ${brk}`;
  let bytes = 0;
  for (const [from, to] of free) {
    snap.fill(0, start + from, start + to);
    bytes += to - from;
  }
  return `${bytes} bytes of ${free.length} free chunks zeroed`;
}

