// Lint for the JavaScript the site ships (assets/) and the service worker's source (tools/).
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
    files: ["assets/prefetch.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.worker } },
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
