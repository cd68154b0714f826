#!/usr/bin/env node
// Run a Python snippet under Pyodide (Python 3.14, the browser's runtime) in Node.
//
// Usage:
//   node tools/pyodide_run.mjs [options] SCRIPT.py [args...]
//   node tools/pyodide_run.mjs [options] -c "python code" [args...]
//   echo "print(1)" | node tools/pyodide_run.mjs [options] -
//
// Options:
//   --mount NAME=DIR   copy the *.py files of DIR (recursively) into
//                      /home/pyodide/NAME/ (repeatable). Default: the repo's
//                      engine/ package as /home/pyodide/engine/.
//   --no-engine        do not mount the repo's engine/ package.
//
// The script runs as __main__ with /home/pyodide first on sys.path, so
// `import engine` works. Python's stdout/stderr go to the process's
// stdout/stderr unchanged. Exit status: 0 on success, the SystemExit code if
// the script calls sys.exit(), 1 on an uncaught exception (traceback on
// stderr), 2 on bad usage.
//
// Requires `npm ci` (node_modules/pyodide). Uses no network.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..");
const HOME = "/home/pyodide";
const SKIP_DIRS = new Set(["__pycache__", "tests", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"]);

function usage(msg) {
  if (msg) process.stderr.write(`pyodide_run: ${msg}\n`);
  process.stderr.write(
    "usage: node tools/pyodide_run.mjs [--mount NAME=DIR]... [--no-engine] (SCRIPT.py | -c CODE | -) [args...]\n",
  );
  process.exit(2);
}

function parseArgs(argv) {
  const mounts = [];
  let engine = true;
  let code = null;
  let filename = null;
  let rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--mount") {
      const spec = argv[++i];
      if (!spec || !spec.includes("=")) usage("--mount needs NAME=DIR");
      const [name, dir] = [spec.slice(0, spec.indexOf("=")), spec.slice(spec.indexOf("=") + 1)];
      mounts.push({ name, dir: path.resolve(dir) });
    } else if (a === "--no-engine") {
      engine = false;
    } else if (a === "-h" || a === "--help") {
      usage();
    } else if (a === "-c") {
      if (i + 1 >= argv.length) usage("-c needs code");
      code = argv[++i];
      filename = "<string>";
      rest = argv.slice(i + 1);
      break;
    } else if (a === "-") {
      code = fs.readFileSync(0, "utf8");
      filename = "<stdin>";
      rest = argv.slice(i + 1);
      break;
    } else if (a === "--") {
      if (i + 1 >= argv.length) usage("missing script");
      filename = argv[i + 1];
      code = fs.readFileSync(filename, "utf8");
      rest = argv.slice(i + 2);
      break;
    } else if (a.startsWith("-")) {
      usage(`unknown option ${a}`);
    } else {
      filename = a;
      code = fs.readFileSync(a, "utf8");
      rest = argv.slice(i + 1);
      break;
    }
  }
  if (code === null) usage("nothing to run");
  if (engine) mounts.unshift({ name: "engine", dir: path.join(ROOT, "engine") });
  return { mounts, code, filename, rest };
}

function mkdirp(FS, dir) {
  let cur = "";
  for (const part of dir.split("/").filter(Boolean)) {
    cur += "/" + part;
    if (!FS.analyzePath(cur).exists) FS.mkdir(cur);
  }
}

// Copy DIR's .py files (recursively, skipping caches/tests) to HOME/NAME.
function copyPackage(FS, srcDir, destDir) {
  if (!fs.existsSync(srcDir) || !fs.statSync(srcDir).isDirectory()) {
    throw new Error(`not a directory: ${srcDir}`);
  }
  mkdirp(FS, destDir);
  let count = 0;
  for (const entry of fs.readdirSync(srcDir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".")) continue;
    const src = path.join(srcDir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) count += copyPackage(FS, src, `${destDir}/${entry.name}`);
    } else if (entry.isFile() && entry.name.endsWith(".py")) {
      FS.writeFile(`${destDir}/${entry.name}`, fs.readFileSync(src));
      count++;
    }
  }
  return count;
}

const { mounts, code, filename, rest } = parseArgs(process.argv.slice(2));

const pyodide = await loadPyodide();
pyodide.setStdout({ write: (buf) => { process.stdout.write(buf); return buf.length; } });
pyodide.setStderr({ write: (buf) => { process.stderr.write(buf); return buf.length; } });

for (const { name, dir } of mounts) {
  try {
    copyPackage(pyodide.FS, dir, `${HOME}/${name}`);
  } catch (err) {
    process.stderr.write(`pyodide_run: cannot mount ${name}: ${err.message}\n`);
    process.exit(2);
  }
}

pyodide.globals.set("__runner_code", code);
pyodide.globals.set("__runner_filename", filename);
pyodide.globals.set("__runner_argv", pyodide.toPy([filename, ...rest]));

const status = pyodide.runPython(`
def __runner():
    import linecache, os, sys, traceback
    os.chdir(${JSON.stringify(HOME)})
    if sys.path[:1] != [${JSON.stringify(HOME)}]:
        sys.path.insert(0, ${JSON.stringify(HOME)})
    sys.argv = list(__runner_argv)
    # Let tracebacks show source lines of the snippet.
    linecache.cache[__runner_filename] = (
        len(__runner_code), None, __runner_code.splitlines(True), __runner_filename)
    namespace = {"__name__": "__main__", "__file__": __runner_filename, "__builtins__": __builtins__}
    try:
        exec(compile(__runner_code, __runner_filename, "exec"), namespace)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except BaseException as exc:
        # Drop this runner's own frame from the traceback.
        traceback.print_exception(type(exc), exc, exc.__traceback__.tb_next)
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return 0
__runner()
`);
process.exitCode = Number(status);
