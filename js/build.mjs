// Bundle the front end for anywidget: one ESM file and one CSS file in
// langfinger_widget/static/ (gitignored; shipped in the wheel as artifacts).
// `node js/build.mjs` builds minified; `--watch` rebuilds on change.
import * as esbuild from "esbuild";

const watch = process.argv.includes("--watch");
const options = {
  // online-page: the game server's pages (langfinger serve); they load widget.js itself.
  entryPoints: ["js/widget.tsx", "js/widget.css", "js/online-page.tsx", "js/online.css"],
  outdir: "langfinger_widget/static",
  entryNames: "[name]",
  bundle: true,
  format: "esm",
  target: ["es2020"],
  minify: !watch,
  sourcemap: watch ? "inline" : false,
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  logLevel: "info",
  metafile: true,
};

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  const result = await esbuild.build(options);
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    console.log(`${file}: ${out.bytes} bytes`);
  }
}
