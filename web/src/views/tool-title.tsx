import { titleParts } from '../hub/tool-title.js';

/** A tool title with workspace-relative paths and its inline code shown as code (hub/tool-title.ts). */
export function ToolTitle({ title, cwd }: { title: string; cwd: string | undefined }) {
  return <>{titleParts(title, cwd).map((p, i) => (p.code ? <code key={i}>{p.text}</code> : p.text))}</>;
}

/** Text a person wrote (a session title, a prompt) with its `inline code` shown as code, not as backticks. */
export function CodeText({ text }: { text: string }) {
  return <ToolTitle title={text} cwd={undefined} />;
}
