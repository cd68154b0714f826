// Lint for the JavaScript the site ships (assets/, the scripts of assets/inline/ among them) and
// the service worker's source (tools/).
// tools/test.sh runs it with tsc --checkJs (tsconfig.json); both must pass.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["assets/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["assets/runtime.js"],  // loaded in Python's worker
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    // The page's classic scripts, which the build writes into index.html where their <script src>
    // stands (tools/build_page.py): each runs in the page's one global scope, before the first paint.
    files: ["assets/inline/*.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    files: ["tools/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node, ...globals.serviceworker } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
      eqeqeq: ["error", "always"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
];
