// Run a Python script in Pyodide under Node: `node lite/pyodide_run.mjs RUNTIME_DIR SCRIPT ARGS...`.
// The build uses it to compile the site's wheels to bytecode with the very Python the site runs
// (Pyodide's CPython, whose bytecode format no host Python may share). The host's file system
// is mounted at /host: SCRIPT and ARGS are host paths (relative ones from the current directory).
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [runtime, script, ...args] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(resolve(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: resolve(runtime) + "/" });
pyodide.FS.mkdirTree("/host");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: "/" }, "/host");
const argv = [script, ...args].map((p) => "/host" + resolve(p));
pyodide.globals.set("lite_argv", pyodide.toPy(argv));
try {
  await pyodide.runPythonAsync(
    "import runpy, sys\nsys.argv = list(lite_argv)\nrunpy.run_path(sys.argv[0], run_name='__main__')",
  );
} catch (err) {
  console.error(err.message); // the Python traceback, without Pyodide's minified source
  process.exit(1);
}
