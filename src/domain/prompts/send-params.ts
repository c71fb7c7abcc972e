/** The `session/send` params of a queued prompt (APP-SERVER.md §4.8). */
import type { SendParams } from '../../app-server/client.js';
import type { QueuedPrompt } from './prompt-queue.js';

/** ACP prompt blocks → `session/send` params (§4.8): text joined, images as attachments. */
export function toSendParams(sessionId: string, prompt: QueuedPrompt): SendParams {
  const texts: string[] = [];
  const attachments: Array<Record<string, unknown>> = [];
  for (const block of prompt.content) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'image':
        attachments.push({ kind: 'image', mimeType: block.mimeType, dataBase64: block.data });
        break;
      case 'resource_link':
        texts.push(block.uri);
        break;
      case 'resource': {
        const r = block.resource;
        texts.push('text' in r ? r.text : r.uri);
        break;
      }
      case 'audio':
        attachments.push({ kind: 'audio', mimeType: block.mimeType, dataBase64: block.data });
        break;
      default:
        break;
    }
  }
  return { sessionId, content: texts.join('\n\n'), inputId: prompt.promptId, ...(attachments.length > 0 ? { attachments } : {}) };
}
