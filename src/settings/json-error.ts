/**
 * What is wrong with a file that is not JSON, without quoting it: V8's
 * `JSON.parse` messages carry a slice of the text (`Unexpected token 'k', "{"apiKey": k"... is
 * not valid JSON`), and the provider file holds API keys. Only a position is kept.
 */
export function jsonSyntaxProblem(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : '';
  const at = /at position (\d+)/.exec(message);
  let offset = at ? Number(at[1]) : undefined;
  if (offset === undefined && /Unexpected end of JSON input/.test(message)) offset = text.length;
  if (offset === undefined || !Number.isSafeInteger(offset) || offset > text.length) return 'not valid JSON';
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `not valid JSON (line ${line}, column ${column})`;
}
