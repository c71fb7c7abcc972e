/** A command to copy, on its own line (the machines screens: what to run on which computer). */
export function Command({ text }: { text: string }) {
  return (
    <pre class="command" data-testid="fix-command">
      <code>{text}</code>
    </pre>
  );
}
