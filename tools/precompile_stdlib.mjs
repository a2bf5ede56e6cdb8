// Precompile Pyodide's standard library to bytecode, with the pinned Pyodide itself.
//
// usage: node tools/precompile_stdlib.mjs <pyodide-dir> <out.zip|-> [<src-dir> <src-prefix> <out2.zip>]
//
// Reads <pyodide-dir>/python_stdlib.zip through the interpreter's own /lib/python3XY.zip,
// compiles every .py with that interpreter (docstrings left out, Pyodide's own too; no column
// ranges; each code object's line table cut to the line of its def: lines_at_def) and writes
// unchecked hash-based .pyc files (PEP 552) next to where the .py was, in a new zip. Files that
// are not .py, and .py files that do not compile (test fixtures with deliberate syntax errors),
// are copied unchanged.
// Optional second job: a directory tree of our own, sources kept, each .py's bytecode added as
// __pycache__/<name>.<cache tag>.pyc (unchecked hash-based: used without reading the source),
// with every line number (a player's bug report names the game's lines) and no function
// annotations (without_function_annotations).
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

def without_function_annotations(tree):
    # Our package only: the annotations of each def's parameters and return. Every module of
    # the game has 'from __future__ import annotations', so they are strings that nothing the
    # page runs reads (no get_type_hints, singledispatch or inspect.signature: mypy reads the
    # sources); they were 0.10 MB of the memory snapshot gzipped. Class bodies keep theirs:
    # dataclasses and NamedTuple make their fields from them.
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.returns = None
            a = node.args
            for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg):
                if arg is not None:
                    arg.annotation = None
    return tree

def with_class_names(tree):
    # Our package only: each class's docstring is its name. A dataclass without a docstring
    # makes one at import from inspect.signature (dataclasses._process_class): in Pyodide a
    # fifth of the game's import, which every boot that does not restore the snapshot pays
    # (the game's import under Node's Pyodide: 236 ms against 295, medians of three).
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            node.body.insert(0, ast.Expr(ast.Constant(node.name)))
    return ast.fix_missing_locations(tree)

def lines_at_def(code):
    # The standard library's code only: each code object's line table says the line of its
    # def (co_firstlineno) for every instruction, in the table's shortest form that still
    # gives a line (a NO_COLUMNS entry, line delta 0, per 8 code units). A traceback through
    # the stdlib names the file, the function and the line of its def; the game's own frames
    # keep their exact lines. Their full tables were 0.09 MB of the memory snapshot gzipped.
    # No table at all, or entries with no line, break traceback.format_exception (it reads
    # each frame's position: StopIteration) and inspect.stack (None - 1).
    n = len(code.co_code) // 2
    table = bytearray()
    while n > 0:
        k = min(n, 8)
        n -= k
        table += bytes((0x80 | (13 << 3) | (k - 1), 0))
    consts = tuple(lines_at_def(c) if isinstance(c, type(code)) else c for c in code.co_consts)
    return code.replace(co_linetable=bytes(table), co_consts=consts)

def compile_tree(items, out_path, prefix, pycache=False):
    # pycache=False: name.py -> name.pyc in its place (sourceless, for the stdlib zip), lines
    # at each def; pycache=True (our package): keep name.py and add __pycache__/name.<tag>.pyc
    # with every line and no function annotations.
    # items: iterable of (name, bytes); returns (compiled, copied)
    n_pyc = n_copy = 0
    with zipfile.ZipFile(out_path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in items:
            if name.endswith(".py"):
                try:
                    source = without_docstrings(data, prefix + name)
                    if pycache:
                        source = with_class_names(without_function_annotations(source))
                    code = compile(source, prefix + name, "exec", dont_inherit=True, optimize=0)
                    if not pycache:
                        code = lines_at_def(code)
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
