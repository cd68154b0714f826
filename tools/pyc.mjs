#!/usr/bin/env node
// Compile Python sources to bytecode with the page's own Python (Pyodide, in Node).
//
// Usage: node tools/pyc.mjs SRC_DIR OUT_DIR RUNTIME_PREFIX [OPTIMIZE]
//
// Every SRC_DIR/**/*.py becomes OUT_DIR/<same path>.pyc (the ".py" name plus
// "c"), compiled by the Python that runs in the browser, so the bytecode fits
// it exactly (same magic number). Compiled small: no docstrings or asserts
// (optimize=2, which the standard library supports, as under `python -OO`) and
// no column positions (PYTHONNODEBUGRANGES; tracebacks still give line numbers). The .pyc files are "unchecked hash" ones:
// Python loads them without looking at a source file's date, which a zip
// archive or an unpacked app.zip.xz does not keep. RUNTIME_PREFIX is where the
// sources live in the page (for the file names shown in tracebacks), for
// example "/lib/python314.zip" or "/home/pyodide". OPTIMIZE is py_compile's level, 2 unless
// given: the page's own code (app.zip.xz) is compiled at 0, keeping its asserts, which CPython runs
// in the tests.
//
// Prints one JSON line: {"cache_tag": "cpython-314", "compiled": N}.
// Called by tools/build.py (via tools/stdlib.py); uses no network.

import fs from "node:fs";
import path from "node:path";
import { loadPyodide } from "pyodide";

const [src, out, prefix, level = "2"] = process.argv.slice(2);
if (!src || !out || prefix === undefined || !/^[0-2]$/.test(level)) {
  process.stderr.write("usage: node tools/pyc.mjs SRC_DIR OUT_DIR RUNTIME_PREFIX [OPTIMIZE]\n");
  process.exit(2);
}

function sources(dir, rel = "") {
  const found = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...sources(dir, name));
    else if (entry.name.endsWith(".py")) found.push(name);
  }
  return found.sort();
}

const names = sources(src);
const pyodide = await loadPyodide({
  env: { PYTHONNODEBUGRANGES: "1" },
  stdout: () => {},
  stderr: (t) => process.stderr.write(t + "\n"),
});
const work = "/tmp/pyc-src";
for (const name of names) {
  const target = `${work}/${name}`;
  pyodide.FS.mkdirTree(path.posix.dirname(target));
  pyodide.FS.writeFile(target, fs.readFileSync(path.join(src, name)));
}
pyodide.globals.set("names", pyodide.toPy(names));
pyodide.globals.set("work", work);
pyodide.globals.set("prefix", prefix);
pyodide.globals.set("level", Number(level));
const tag = pyodide.runPython(`
import py_compile, sys
for name in names:
    py_compile.compile(
        f"{work}/{name}",
        cfile=f"{work}/{name}c",
        dfile=f"{prefix}/{name}",
        doraise=True,
        optimize=level,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
sys.implementation.cache_tag
`);
for (const name of names) {
  const target = path.join(out, `${name}c`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, pyodide.FS.readFile(`${work}/${name}c`));
}
process.stdout.write(JSON.stringify({ cache_tag: tag, compiled: names.length }) + "\n");
