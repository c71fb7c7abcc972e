import type { TurnContext } from '../turn/turn-context.js';
import { runTool } from './tools.js';

/** `permission`: a Bash `npm test` that asks first (every mode but yolo), with progress output. */
export async function permissionScenario(ctx: TurnContext): Promise<void> {
  await ctx.reasoning('I should run the test suite to check the change. That needs a shell command.');
  await ctx.say('I will run the tests.\n');
  const r = await runTool(ctx, {
    name: 'Bash',
    input: { command: 'npm test', description: 'Run the test suite' },
    needsPermission: true,
    reason: 'Run command',
    riskLevel: 'medium',
    run: async (toolCallId) => {
      const lines = [
        '> sim@1.0.0 test',
        '> vitest run',
        ' ✓ test/a.test.ts (3 tests)',
        ' ✓ test/b.test.ts (5 tests)',
        ' Test Files  2 passed (2)',
      ];
      let out = '';
      const startedAt = Date.now();
      for (const line of lines) {
        await ctx.sleep(120);
        out += `${line}\n`;
        ctx.emit('tool.updated', {
          kind: 'progress',
          toolCallId,
          toolName: 'Bash',
          elapsedMs: Date.now() - startedAt,
          pid: 4242,
          stdoutBytes: Buffer.byteLength(out),
          stdoutTail: out.slice(-400),
        });
      }
      return { success: true, content: out, display: { kind: 'bash_output', command: 'npm test', exitCode: 0 } };
    },
  });
  if (r.denied) await ctx.say('The command was not run because permission was denied. Tell me how you want to proceed.');
  else await ctx.say('All **8 tests passed** in 2 files.');
}
