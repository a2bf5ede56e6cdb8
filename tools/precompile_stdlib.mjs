// Precompile Pyodide's standard library to bytecode, with the pinned Pyodide itself.
//
// usage: node tools/precompile_stdlib.mjs <pyodide-dir> <out.zip|-> [<src-dir> <src-prefix> <out2.zip>]
//
// Reads <pyodide-dir>/python_stdlib.zip through the interpreter's own /lib/python3XY.zip,
// compiles every .py with that interpreter (docstrings left out, Pyodide's own too; no column
// ranges) and writes unchecked hash-based .pyc files (PEP 552) next to where the .py was, in a
// new zip. Files that are not .py, and .py files
// that do not compile (test fixtures with deliberate syntax errors), are copied unchanged.
// Optional second job: a directory tree of our own, sources kept, each .py's bytecode added as
// __pycache__/<name>.<cache tag>.pyc (unchecked hash-based: used without reading the source).
import { readFileSync, writeFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, outZip, srcDir, srcPrefix, outZip2] = process.argv.slice(2);
if (!pyodideDir || !outZip) {
  console.error("usage: precompile_stdlib.mjs <pyodide-dir> <out.zip> [<src-dir> <prefix> <out2.zip>]");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
// PYTHONNODEBUGRANGES: line numbers without column ranges in every code object (as python -X
// no_debug_ranges): tracebacks keep their lines but lose the ^^^ marks, and the bytecode is
// smaller (tools/snapshot.mjs makes the memory snapshot the same way).
const py = await loadPyodide({ indexURL: resolve(pyodideDir) + sep, env: { PYTHONNODEBUGRANGES: "1" } });

const COMPILE = `
import ast
import importlib._bootstrap_external as be
import importlib.util, sys, zipfile

def without_docstrings(data, filename):
    # What python -OO drops of the docstrings (asserts stay): they are 15% of the stdlib's
    # bytecode and 0.8 MB of the memory snapshot's heap, and nothing the game runs reads them.
    # Pyodide's own lose theirs too (0.04 MB of the snapshot gzipped): only help() shows them,
    # and _pyodide/docstring.py gives the C methods their signatures without one.
    tree = ast.parse(data, filename)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.Pass()]
    return ast.fix_missing_locations(tree)

def compile_tree(items, out_path, prefix, pycache=False):
    # pycache=False: name.py -> name.pyc in its place (sourceless, for the stdlib zip);
    # pycache=True: keep name.py and add __pycache__/name.<tag>.pyc (sources stay for tracebacks)
    # items: iterable of (name, bytes); returns (compiled, copied)
    n_pyc = n_copy = 0
    with zipfile.ZipFile(out_path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in items:
            if name.endswith(".py"):
                try:
                    source = without_docstrings(data, prefix + name)
                    code = compile(source, prefix + name, "exec", dont_inherit=True, optimize=0)
                except (SyntaxError, ValueError):
                    out.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)
                    n_copy += 1
                    continue
                pyc = be._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                if pycache:
                    out.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data,
                                 compress_type=zipfile.ZIP_DEFLATED)
                    head, _, base = name.rpartition("/")
                    target = (head + "/" if head else "") + "__pycache__/" + base[:-3] + "." + sys.implementation.cache_tag + ".pyc"
                else:
                    target = name + "c"
                out.writestr(zipfile.ZipInfo(target, (1980, 1, 1, 0, 0, 0)), bytes(pyc),
                             compress_type=zipfile.ZIP_DEFLATED)
                n_pyc += 1
            else:
                out.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data,
                             compress_type=zipfile.ZIP_DEFLATED)
                n_copy += 1
    return n_pyc, n_copy
`;
py.runPython(COMPILE);
// refuse to write bytecode with column ranges if the option did not take (another Pyodide)
py.runPython('assert list(compile("x", "t", "eval").co_positions())[0][2] is None, "column ranges kept"');

// 1. the standard library (skipped when <out.zip> is "-")
if (outZip !== "-") {
const stdlib = py.runPython(`
src = [p for p in sys.path if p.endswith(".zip")][0]
with zipfile.ZipFile(src) as z:
    items = [(i.filename, z.read(i)) for i in z.infolist() if not i.is_dir()]
n = compile_tree(items, "/tmp/stdlib.zip", src + "/")
f"{src}: {n[0]} compiled, {n[1]} copied, {sys.version.split()[0]}"
`);
writeFileSync(outZip, py.FS.readFile("/tmp/stdlib.zip"));
console.log(`stdlib: ${stdlib} -> ${outZip}`);
}

// 2. optionally, our own package
if (srcDir && srcPrefix && outZip2) {
  const files = [];
  const walk = (d) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(resolve(srcDir));
  py.FS.mkdirTree("/tmp/src");
  const names = [];
  files.forEach((p, i) => {
    py.FS.writeFile(`/tmp/src/${i}`, readFileSync(p));
    names.push(relative(resolve(srcDir), p).split(sep).join("/"));
  });
  py.globals.set("names", py.toPy(names));
  py.globals.set("prefix", srcPrefix);
  const own = py.runPython(`
items = [(n, open(f"/tmp/src/{i}", "rb").read()) for i, n in enumerate(names)]
n = compile_tree(items, "/tmp/own.zip", prefix, pycache=True)
f"{n[0]} compiled, {n[1]} copied"
`);
  writeFileSync(outZip2, py.FS.readFile("/tmp/own.zip"));
  console.log(`package: ${own} -> ${outZip2}`);
}
