// Generate the service worker (sw.js) for a built site folder.
//
//   node tools/sw.mjs <site-dir>
//
// Two public tools do the work: esbuild bundles the worker's source
// (tools/sw-src.mjs, which imports the Workbox runtime) into one file, and
// workbox-build's injectManifest() writes into it the list of every file of
// the site with the SHA-256 of its content as its revision. Changing any file
// changes its revision, so a new deployment downloads exactly the files that
// changed and Workbox cleans up the rest. SHA-256 rather than Workbox's MD5
// lets the worker check a file the page hands over (see tools/sw-src.mjs).
//
// The output is deterministic: same site files, same sw.js.

import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";
import { injectManifest } from "workbox-build";

export const GLOB_PATTERNS = ["**/*.{html,js,mjs,css,json,webmanifest,zip,wasm,svg,png,ico,txt,py,xz}"];
const MAX_FILE_BYTES = 64 * 1024 * 1024; // pyodide.asm.wasm is ~9.6 MB
const SOURCE = fileURLToPath(new URL("./sw-src.mjs", import.meta.url));

async function bundle(dest) {
  await build({
    entryPoints: [SOURCE],
    outfile: dest,
    bundle: true,
    format: "iife",
    minify: true,
    legalComments: "none",
    target: "es2020",
    // Workbox drops its development logging in production builds.
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
}

function sha256Revisions(globDirectory) {
  return async (entries) => {
    const manifest = [];
    for (const entry of entries) {
      const data = await fs.readFile(path.join(globDirectory, entry.url));
      // The page is precached under the folder's own address ("./"), the one a
      // visitor navigates to: installing then revalidates what the navigation
      // has just downloaded instead of fetching index.html a second time.
      const url = entry.url === "index.html" ? "./" : entry.url;
      manifest.push({ ...entry, url, revision: createHash("sha256").update(data).digest("hex") });
    }
    manifest.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
    return { manifest, warnings: [] };
  };
}

export async function generate(siteDir) {
  const globDirectory = path.resolve(siteDir);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "ocho-sw-"));
  try {
    const swSrc = path.join(tmp, "sw.js");
    await bundle(swSrc);
    const { count, size, warnings } = await injectManifest({
      swSrc,
      swDest: path.join(globDirectory, "sw.js"),
      globDirectory,
      globPatterns: GLOB_PATTERNS,
      globIgnores: ["sw.js", "**/*.map"],
      maximumFileSizeToCacheInBytes: MAX_FILE_BYTES,
      manifestTransforms: [sha256Revisions(globDirectory)],
    });
    if (warnings.length) {
      throw new Error("workbox injectManifest warnings:\n" + warnings.join("\n"));
    }
    return { count, size, files: ["sw.js"] };
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const siteDir = process.argv[2];
  if (!siteDir) {
    console.error("usage: node tools/sw.mjs <site-dir>");
    process.exit(2);
  }
  generate(siteDir).then(
    ({ count, size, files }) => {
      console.log(JSON.stringify({ precached_files: count, precached_bytes: size, written: files }));
    },
    (err) => {
      console.error(err && err.stack ? err.stack : String(err));
      process.exit(1);
    },
  );
}
