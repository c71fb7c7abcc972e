import fs from 'node:fs/promises';
import path from 'node:path';
import type { TurnContext } from '../turn/turn-context.js';
import { runTool } from './tools.js';

/** The helper module the `edit` scenario writes (a new file the first time, rewritten after). */
export const EDIT_SCENARIO_FILE = path.join('src', 'greet.ts');

const README_STUB = '# Project\n\nA sample project used by the ZCode simulator.\n';
const USAGE = '\n## Usage\n\n```ts\nimport { greet } from "./src/greet";\n\ngreet("world"); // "Hello, world!"\n```\n';
const GREET = [
  '/** A friendly greeting for `name` (written by the ZCode simulator). */',
  'export function greet(name: string): string {',
  '  const who = name.trim() || "there";',
  '  return `Hello, ${who}!`;',
  '}',
  '',
].join('\n');

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * `edit`: real changes to the session's workspace, each behind a permission. An `Edit` of
 * README.md (its last non-empty line gains a Usage section; a missing README is created with
 * `Write` instead) and a `Write` of src/greet.ts. The hub turns both inputs into ACP `diff`
 * content; a denied call leaves the file untouched.
 */
export async function editScenario(ctx: TurnContext): Promise<void> {
  const root = ctx.rt.info.workspace.workspacePath;
  const readme = path.join(root, 'README.md');
  await ctx.reasoning(
    'The user wants a change to the project. I will document the greeting helper in the README and add the helper itself.',
  );
  await ctx.say('I will document the helper in the README, then add it.\n');

  const current = await readText(readme);
  const lastLine = current
    ?.split('\n')
    .filter((l) => l.trim() !== '')
    .pop();
  const denied: string[] = [];
  if (current === undefined || lastLine === undefined) {
    const r = await runTool(ctx, {
      name: 'Write',
      input: { file_path: readme, content: README_STUB + USAGE },
      needsPermission: true,
      reason: 'Create README.md',
      riskLevel: 'medium',
      run: async () => {
        await ctx.sleep(80);
        await fs.writeFile(readme, README_STUB + USAGE);
        return { success: true, content: `File created successfully at: ${readme}` };
      },
    });
    if (r.denied) denied.push('README.md');
  } else {
    const r = await runTool(ctx, {
      name: 'Edit',
      input: { file_path: readme, old_string: lastLine, new_string: `${lastLine}\n${USAGE.trimEnd()}` },
      needsPermission: true,
      reason: 'Edit README.md',
      riskLevel: 'medium',
      run: async () => {
        await ctx.sleep(80);
        // Re-read: the file may have changed while the permission was pending.
        const now = (await readText(readme)) ?? '';
        const at = now.lastIndexOf(lastLine);
        if (at < 0) return { success: false, content: `String to replace not found in ${readme}` };
        await fs.writeFile(readme, `${now.slice(0, at)}${lastLine}\n${USAGE.trimEnd()}${now.slice(at + lastLine.length)}`);
        return { success: true, content: `The file ${readme} has been updated.` };
      },
    });
    if (r.denied) denied.push('README.md');
  }

  const greet = path.join(root, EDIT_SCENARIO_FILE);
  const w = await runTool(ctx, {
    name: 'Write',
    input: { file_path: greet, content: GREET },
    needsPermission: true,
    reason: `Write ${EDIT_SCENARIO_FILE}`,
    riskLevel: 'medium',
    run: async () => {
      await ctx.sleep(80);
      await fs.mkdir(path.dirname(greet), { recursive: true });
      await fs.writeFile(greet, GREET);
      return { success: true, content: `File created successfully at: ${greet}` };
    },
  });
  if (w.denied) denied.push(EDIT_SCENARIO_FILE);

  if (denied.length === 2) await ctx.say('Nothing was changed: both edits were denied.');
  else if (denied.length === 1) await ctx.say(`Done, except **${denied[0]}**, which you did not allow me to change.`);
  else await ctx.say('Done: the README documents `greet`, and **src/greet.ts** exports it. Open *Changes* to review the diff.');
}
