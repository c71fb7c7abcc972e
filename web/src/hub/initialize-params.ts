/**
 * What this app says it is and can do in `initialize`: its own module, with nothing heavy behind
 * it, because the app's first script (early.ts) sends it before the rest has loaded.
 */

/**
 * The app's version (package.json), put in by the build (web/vite.config.ts `define`): a named
 * import of package.json would not type-check under Node's module rules, which the unit tests
 * that load this module use, and a default one would ship the whole file.
 */
declare const __APP_VERSION__: string;

/** `initialize` params of the web app, named after this device. */
export function initializeParams(device: string) {
  return {
    protocolVersion: 1,
    // elicitation.form: questions and plan approvals arrive as forms (CLIENT-PROTOCOL "Interactions");
    // terminal_output: Bash output streams in `_meta` (src/acp/tool-output.ts).
    clientCapabilities: {
      fs: { readTextFile: false, writeTextFile: false },
      terminal: false,
      elicitation: { form: {} },
      _meta: { terminal_output: true },
    },
    clientInfo: { name: device, title: 'ZCode Hub web', version: __APP_VERSION__ },
  };
}
