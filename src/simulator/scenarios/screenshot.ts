import { randomBytes } from 'node:crypto';
import { newId } from '../session-runtime.js';
import type { TurnContext } from '../turn/turn-context.js';

/** The PNG signature, so the data URL starts like a real image. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * `screenshot`: the agent captures an image and keeps it in the conversation. Snapshots and
 * `session/messages` inline images as data URLs (up to 20 MiB each, APP-SERVER.md §3.6, §3.7
 * `file` part), so every later create/resume/subscribe/`set*` result carries it: the case that
 * makes result lines tens of MiB long. Size: `--image-bytes` (raw bytes before base64).
 */
export async function screenshotScenario(ctx: TurnContext): Promise<void> {
  await ctx.reasoning('Capturing the screen to look at the layout.');
  const bytes = Math.max(PNG_SIGNATURE.length, ctx.sim.options.imageBytes);
  const data = Buffer.concat([PNG_SIGNATURE, randomBytes(bytes - PNG_SIGNATURE.length)]);
  ctx.parts.push({
    partId: newId('prt'),
    sessionId: ctx.rt.sessionId,
    messageId: ctx.assistantMessageId,
    type: 'file',
    mime: 'image/png',
    filename: 'screenshot.png',
    url: `data:image/png;base64,${data.toString('base64')}`,
  });
  await ctx.say(`Here is the screenshot (${bytes} bytes); the layout looks right.`);
}
