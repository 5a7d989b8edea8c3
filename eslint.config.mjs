// The phones' scripts (static): plain ES2017 scripts, each one function
// scope, so a name declared twice with `var` is one variable, silently shared. make test
// runs this before the tests.
import globals from "globals";

export default [
  {
    files: ["static/**/*.js"],
    ignores: ["static/vendor/**"],
    languageOptions: {
      ecmaVersion: 2017,
      sourceType: "script",
      globals: { ...globals.browser, ...globals.serviceworker,
                 CONFIG: "readonly" },  // sw.js: what the server writes above it
    },
    rules: {
      "no-redeclare": "error",
      "no-undef": "error",
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "no-dupe-keys": "error",
      "no-unreachable": "error",
    },
  },
];
